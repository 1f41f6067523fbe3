"""The local intent classifier: one embedding per message, a probe and nearest examples, then
continuation rules when the prior companion turn is waiting for an answer.

Score of intent k = probe logit_k + KNN_WEIGHT * (mean cosine of the message to intent k's 3
nearest examples), minus a prior penalty for project-only intents on a project-less turn.
The softmax of the scores is the confidence; below MIN_CONFIDENCE the answer is
general_conversation (asking nothing of memory is the safe default).
"""

from __future__ import annotations

import hashlib
import math
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.domain import PromptRef
from pipeline.english import language
from pipeline.english.choices import chosen_indexes, pick_one
from pipeline.english.cues import (
    asks_everything,
    asks_to_forget,
    asks_to_restore,
    forget_object,
    is_correction,
    is_first_person_clause,
    limits_to_project,
    names_only_a_position,
    without_cues,
)
from pipeline.english.extract import forget_description, params_for, personal_fact
from pipeline.english.forms import form_intent
from pipeline.english.language import (
    FEATURE_NAMES,
    VERB_CUES,
    cue_features,
    cue_matrix,
    is_question,
)
from pipeline.english.lexicon import keywords
from pipeline.english.reading import ABOUT_SPEAKER, ADDITION, EVERY_OFFER, WITHDRAWS
from pipeline.english.refine import parallel_fact, refine_fact
from pipeline.english.shorthand import unabbreviated
from pipeline.english.spelling import spelled
from pipeline.english.status import detect_status
from pipeline.english.surface import contracted, plain
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, LOW_CONFIDENCE
from pipeline.memory.embeddings import Embedder, Vectors
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local import probe
from pipeline.providers.local.acts import with_profile_field, with_status
from pipeline.providers.local.continuation import (
    Offer,
    ReplyKind,
    earlier_offers,
    offered_many,
    pending_offer,
    read_reply,
)
from pipeline.providers.local.examples import Examples, cached_arrays, load_examples
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.providers.local.nearest import Groups
from pipeline.providers.local.words import known_words, vocabulary
from pipeline.reading import ClassifiedIntent

NAME = "local"
KNN_WEIGHT = 2.0
MIN_CONFIDENCE = LOW_CONFIDENCE
# How much less likely a project-only intent is on a turn outside any project (a prior,
# not a ban: "show me the project notes" outside a project still gets a helpful answer).
NO_PROJECT_PRIOR = 0.2
# The form features are computed by pipeline/english/language.py: its source keys the probe.
PROBE_VERSION = (
    f"probe-v2|{probe.CUE_SCALE}|{probe.L2}|{','.join(FEATURE_NAMES)}|"
    + "|".join(VERB_CUES.values())
    + "|"
    + hashlib.sha256(Path(language.__file__).read_bytes()).hexdigest()[:16]
)


@dataclass(frozen=True)
class _State:
    examples: Examples
    intents: tuple[str, ...]
    vectors: Vectors
    intent_groups: Groups
    weights: npt.NDArray[np.float32]
    # Added to the scores of a turn outside any project (the project-only intents' prior).
    no_project_penalty: npt.NDArray[np.float32]
    replies: Vectors
    reply_kinds: tuple[str, ...]  # one per kind, in order of first appearance
    reply_groups: Groups
    prompt_ref: PromptRef


class LocalClassifier:
    """Classifies with all-MiniLM-L6-v2 embeddings: offline, deterministic, ~15 ms a message."""

    name = NAME

    def __init__(
        self,
        embedder: Embedder | None = None,
        examples: Path | None = None,
        min_confidence: float = MIN_CONFIDENCE,
    ) -> None:
        self.embedder: Embedder = embedder or MiniLMEmbedder()
        # The row's model names the runtime too: the ONNX and torch embedders are compared.
        embedder_id = getattr(self.embedder, "embedder_id", "")
        self.model = (
            f"{self.embedder.model_name} ({embedder_id})"
            if embedder_id
            else self.embedder.model_name
        )
        self.min_confidence = min_confidence
        self._examples_path = examples
        self._state: _State | None = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model and the examples now rather than on the first message."""
        self._ready()

    def _ready(self) -> _State:
        with self._lock:
            if self._state is None:
                self._state = self._build()
            return self._state

    def _build(self) -> _State:
        examples = load_examples(self._examples_path)
        intents = examples.intents
        labels = np.array([intents.index(label) for label in examples.labels], dtype=np.int64)

        def derive(vectors: Vectors, _replies: Vectors) -> dict[str, npt.NDArray[np.float32]]:
            inputs = probe.design(vectors, cue_matrix(list(examples.texts)))
            return {"probe": probe.fit(inputs, labels, len(intents))}

        arrays = cached_arrays(examples, self.embedder, PROBE_VERSION, derive)
        kinds = tuple(dict.fromkeys(examples.reply_kinds))
        kind_index = np.array([kinds.index(k) for k in examples.reply_kinds], dtype=np.int64)
        penalty = math.log(NO_PROJECT_PRIOR)
        return _State(
            examples=examples,
            intents=intents,
            vectors=arrays["examples"],
            intent_groups=Groups.of(labels, len(intents)),
            weights=arrays["probe"],
            no_project_penalty=np.array(
                [penalty if INTENTS[i].needs_project else 0.0 for i in intents], dtype=np.float32
            ),
            replies=arrays["replies"],
            reply_kinds=kinds,
            reply_groups=Groups.of(kind_index, len(kinds)),
            prompt_ref=PromptRef(
                family="local_model/examples", version=examples.sha256[:12], sha256=examples.sha256
            ),
        )

    def intent_scores(self, message: str, vector: Vectors, has_project: bool) -> dict[str, float]:
        """Probabilities of every labelled intent for a fresh (non-continuation) message."""
        state = self._ready()
        inputs = probe.design(vector[None, :], cue_features(message)[None, :])
        logits = (inputs @ state.weights)[0]
        nearest = state.intent_groups.top_mean(state.vectors @ vector)[0]
        scores = logits + KNN_WEIGHT * nearest
        if not has_project:
            scores = scores + state.no_project_penalty
        probs = probe.probabilities(scores.astype(np.float32))
        return {intent: float(p) for intent, p in zip(state.intents, probs, strict=True)}

    def reply_scores(self, vector: Vectors) -> dict[str, float]:
        """Similarity of a reply to each kind of reply example (confirm, reject, ...)."""
        state = self._ready()
        if not state.reply_kinds:
            return {}
        means = state.reply_groups.top_mean(state.replies @ vector)[0]
        return {kind: float(m) for kind, m in zip(state.reply_kinds, means, strict=True)}

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify one message in its context; never raises for an odd message."""
        return with_status(with_profile_field(self._classified(request)), request.message)

    def _classified(self, request: ClassifyRequest) -> ClassifiedIntent:
        state = self._ready()
        # "yws", "thaf's it", a trailing "tbh" or an emoji must not change what a message says
        request = replace(request, message=plain(request.message, known_words()))
        read = read_text(request.message)
        vector = self.embedder.embed([read])[0]
        meta: dict[str, Any] = {
            "provider": NAME,
            "model": self.model,
            "prompt_refs": (state.prompt_ref,),
        }
        restore = asks_to_restore(read)
        meta["question"] = is_question(read)
        pending = _reading_of_many(replace(request, message=read))
        offer = pending_offer(replace(request, message=read)) if pending is None else None
        if offer is not None:
            kind = read_reply(read, offer, self.reply_scores(vector), request.project_name)
            resolved = _resolve(offer, kind, request, read)
            if resolved is not None:
                intent, params, reading = resolved
                return validated(
                    intent,
                    params,
                    confidence=CONTINUATION_CONFIDENCE,
                    reading=reading,
                    restore=restore,
                    **meta,
                )
            pending = {"relation": "unrelated"}
        if pending is not None and pending["relation"] != "unrelated":
            return validated(
                "remember_about_me",
                {},
                confidence=CONTINUATION_CONFIDENCE,
                reading=pending,
                **meta,
            )
        intent, params, confidence = self._fresh(request, read, vector)
        return validated(
            intent, params, confidence=confidence, reading=pending, restore=restore, **meta
        )

    def _fresh(
        self, request: ClassifyRequest, read: str, vector: Vectors
    ) -> tuple[str, dict[str, str], float]:
        """The intent of a message that answers nothing pending (or answers it unrelatedly).
        `read` is the message as read (slips read past); facts are taken from it as typed."""
        has_project = request.project_name is not None
        typed = request.message
        if asks_to_forget(read):
            return (*_forget_framed("forget_about_me", {}, read, has_project), FORM_CONFIDENCE)
        formed = form_intent(read, has_project)
        if formed is not None:
            params = _params(formed, typed, read)
            intent, params = _forget_framed(formed, params, read, has_project)
            return intent, params, FORM_CONFIDENCE
        probs = self.intent_scores(read, vector, has_project)
        intent = max(probs, key=lambda k: probs[k])
        confidence = probs[intent]
        if intent == "add_knowledge" and not has_project and ABOUT_SPEAKER.search(read):
            # Outside a project a statement about the speaker's own life can only be personal.
            intent, confidence = "remember_about_me", max(confidence, probs["remember_about_me"])
        if intent in _FORGETTING and not WITHDRAWS.search(read):
            # "remember my birthday" shares its words with "stop remembering my birthday",
            # but a request to forget always says so: without a word that withdraws, the
            # next reading stands.
            intent = max((i for i in probs if i not in _FORGETTING), key=lambda k: probs[k])
            confidence = probs[intent]
        if INTENTS[intent].needs_project and not has_project and detect_status(read):
            # "washing machine's leaking again" outside a project reports where a thing
            # stands: conversation (the responder notes the status), not a project note.
            return FALLBACK_INTENT, {}, round(confidence, 4)
        if confidence < self.min_confidence:
            return FALLBACK_INTENT, {}, round(confidence, 4)
        intent, params = _forget_framed(intent, _params(intent, typed, read), read, has_project)
        return intent, params, round(confidence, 4)


def _params(intent: str, typed: str, read: str) -> dict[str, str]:
    """A fact to store keeps what was typed; what to look up or forget is read past slips."""
    return params_for(intent, typed if intent in _STORES else read)


_STORES = frozenset(["remember_about_me", "add_knowledge"])


def read_text(typed: str) -> str:
    """The message as the rules and the model read it: texting shorthand read as the words it
    stands for ("could u drop ..."), slips read past, written-out forms contracted as the
    examples are written ("I am" -> "I'm"), and a question by its form given the question mark
    it was typed without."""
    read = contracted(spelled(unabbreviated(typed), vocabulary()))
    if is_question(read) and not read.rstrip().endswith("?"):
        read = read.rstrip(" .!…") + "?"
    return read


def _forget_framed(
    intent: str, params: dict[str, str], message: str, has_project: bool
) -> tuple[str, dict[str, str]]:
    """A request framed as "forget ..." never stores anything: it asks to forget what it
    describes (a personal fact, or in a project a note unless it is about the speaker).
    A recall that asks for everything ("what's on file about me?") carries no query."""
    if intent == "ask_about_past_input" and asks_everything(message):
        return intent, {}
    forgets = intent in ("remember_about_me", "add_knowledge", "forget_about_me")
    if not forgets or not asks_to_forget(message):
        return intent, params
    described = forget_object(message)
    if has_project and not is_first_person_clause(described):
        return "retract_knowledge", {"knowledge_description": described}
    return "forget_about_me", {"forget_description": described}


def _reading_of_many(request: ClassifyRequest) -> dict[str, Any] | None:
    """The reading of a reply to several facts offered at once, or None when none were."""
    offered = offered_many(request)
    if not offered:
        return None
    kept = chosen_indexes(request.message, [text for _, text in offered])
    if kept is None:
        return {"relation": "unrelated"}
    if not kept:
        return {"relation": "reject"}
    if len(kept) == len(offered):
        return {"relation": "confirm"}
    return {"relation": "choose", "chosen": [offered[i][0] for i in sorted(kept)]}


# Confidence reported for a continuation decided by the prior turn and the reply's form, and
# for an intent decided by the message's own form (pipeline/english/forms.py).
CONTINUATION_CONFIDENCE = 0.9
FORM_CONFIDENCE = 0.9


def _resolve(
    offer: Offer, kind: ReplyKind, request: ClassifyRequest, read: str
) -> tuple[str, dict[str, str], dict[str, Any]] | None:
    """The intent, parameters and reading a reply to an offer means; None when it is a new
    message (an unrelated reading: the offer stays held). A fact keeps the reply as typed
    (`request.message`); which item it names and what it describes are read past slips."""
    typed = request.message
    message = read
    if kind == "other":
        return None
    if kind in ("reject", "decline"):
        scoped = request.project_name is not None and (
            kind == "decline" or limits_to_project(message, request.project_name or "")
        )
        rejects = {"relation": "reject", "project_only": scoped and offer.kind == "remember"}
        return FALLBACK_INTENT, {}, rejects
    param = "knowledge_description" if offer.intent == "retract_knowledge" else "forget_description"
    if offer.kind == "ambiguous":
        picked = pick_one(message, offer.items)
        chosen = [picked] if picked is not None else []
        return offer.intent, {param: message.strip()}, {"relation": "choose", "chosen": chosen}
    if offer.kind == "retraction":
        if kind == "confirm":
            return offer.intent, {param: offer.description or offer.fact}, {"relation": "confirm"}
        if kind == "choose" or names_only_a_position(message):
            # "the second one" after a single match: the question is asked again
            return offer.intent, {param: offer.description}, {"relation": "choose"}
        described = without_cues(message)
        if not keywords(described):
            described = without_cues(forget_description(message))
        return offer.intent, {param: described}, {"relation": "correct", "corrected": described}
    if kind == "confirm":
        params = {"personal_fact": offer.fact} if offer.fact else {}
        reading: dict[str, Any] = {"relation": "confirm"}
        if EVERY_OFFER.search(message):  # "yes, both are right" after two single offers
            reading["chosen"] = list(earlier_offers(request))
        return "remember_about_me", params, reading
    if not is_correction(message):
        addition = ADDITION.match(typed)
        rest = typed[addition.end() :] if addition else typed
        if is_first_person_clause(rest):  # "my father is 81": a fact of its own
            fact = personal_fact(rest)
            return "remember_about_me", {"personal_fact": fact}, {"relation": "unrelated"}
        if addition:  # "and a greyhound called Rufus": a second fact shaped like the first
            fact = parallel_fact(offer.fact, rest)
            return "remember_about_me", {"personal_fact": fact}, {"relation": "unrelated"}
    corrected = refine_fact(offer.fact, typed)
    corrects: dict[str, Any] = {"relation": "correct", "corrected": corrected}
    if offer.number is not None:  # an offer from before the last exchange, named
        corrects["chosen"] = [offer.number]
    return "remember_about_me", {"personal_fact": corrected}, corrects


_FORGETTING = frozenset(["forget_about_me", "retract_knowledge"])
