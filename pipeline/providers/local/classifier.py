"""The local intent classifier: one embedding per message, a probe and nearest examples, then
continuation rules when the prior companion turn is waiting for an answer.

Score of intent k = probe logit_k + KNN_WEIGHT * (mean cosine of the message to intent k's 3
nearest examples), minus a prior penalty for project-only intents on a project-less turn.
The softmax of the scores is the confidence; below MIN_CONFIDENCE the answer is
general_conversation (asking nothing of memory is the safe default).
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.domain import ClassifiedIntent, PromptRef
from pipeline.intents.cues import is_correction, is_first_person_clause
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, LOW_CONFIDENCE
from pipeline.memory.embeddings import Embedder, Vectors
from pipeline.providers.base import ClassifyRequest, validated
from pipeline.providers.local import probe
from pipeline.providers.local.continuation import Offer, ReplyKind, pending_offer, read_reply
from pipeline.providers.local.examples import Examples, cached_arrays, load_examples
from pipeline.providers.local.extract import forget_description, params_for, personal_fact
from pipeline.providers.local.forms import form_intent
from pipeline.providers.local.language import FEATURE_NAMES, VERB_CUES, cue_features, cue_matrix
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.providers.local.nearest import Groups
from pipeline.providers.local.refine import parallel_fact, refine_fact

NAME = "local"
KNN_WEIGHT = 2.0
MIN_CONFIDENCE = LOW_CONFIDENCE
# How much less likely a project-only intent is on a turn outside any project (a prior,
# not a ban: "show me the project notes" outside a project still gets a helpful answer).
NO_PROJECT_PRIOR = 0.2
PROBE_VERSION = f"probe-v2|{probe.CUE_SCALE}|{probe.L2}|{','.join(FEATURE_NAMES)}|" + "|".join(
    VERB_CUES.values()
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
        state = self._ready()
        vector = self.embedder.embed([request.message])[0]
        meta: dict[str, Any] = {
            "provider": NAME,
            "model": self.model,
            "prompt_refs": (state.prompt_ref,),
        }
        offer = pending_offer(request)
        if offer is not None:
            kind = read_reply(request.message, offer, self.reply_scores(vector))
            resolved = _resolve(offer, kind, request.message)
            if resolved is not None:
                intent, params, confidence = resolved
                return validated(intent, params, confidence=confidence, **meta)
        has_project = request.project_name is not None
        formed = form_intent(request.message, has_project)
        if formed is not None:
            params = params_for(formed, request.message)
            return validated(formed, params, confidence=FORM_CONFIDENCE, **meta)
        probs = self.intent_scores(request.message, vector, has_project)
        intent = max(probs, key=lambda k: probs[k])
        confidence = probs[intent]
        if intent == "add_knowledge" and not has_project and _ABOUT_SPEAKER.search(request.message):
            # Outside a project a statement about the speaker's own life can only be personal.
            intent, confidence = "remember_about_me", max(confidence, probs["remember_about_me"])
        if confidence < self.min_confidence:
            return validated(FALLBACK_INTENT, {}, confidence=round(confidence, 4), **meta)
        return validated(
            intent, params_for(intent, request.message), confidence=round(confidence, 4), **meta
        )


# Confidence reported for a continuation decided by the prior turn and the reply's form, and
# for an intent decided by the message's own form (pipeline/providers/local/forms.py).
CONTINUATION_CONFIDENCE = 0.9
FORM_CONFIDENCE = 0.9


def _resolve(
    offer: Offer, kind: ReplyKind, message: str
) -> tuple[str, dict[str, str], float] | None:
    """The intent and parameters a reply to an offer means; None when it is a new message."""
    c = CONTINUATION_CONFIDENCE
    if kind == "other":
        return None
    if kind in ("reject", "decline"):
        return FALLBACK_INTENT, {}, c
    if offer.kind == "ambiguous":
        return "forget_about_me", {"forget_description": message.strip()}, c
    if offer.kind == "retraction":
        if kind == "confirm":
            return "forget_about_me", {"forget_description": offer.description or offer.fact}, c
        return "forget_about_me", {"forget_description": forget_description(message)}, c
    if kind == "confirm":
        return "remember_about_me", ({"personal_fact": offer.fact} if offer.fact else {}), c
    if kind in ("refine", "choose"):
        if not is_correction(message):
            addition = _ADDITION.match(message)
            rest = message[addition.end() :] if addition else message
            if is_first_person_clause(rest):  # "my father is 81": a fact of its own
                return "remember_about_me", {"personal_fact": personal_fact(rest)}, c
            if addition:  # "and a greyhound called Rufus": a second fact shaped like the first
                return "remember_about_me", {"personal_fact": parallel_fact(offer.fact, rest)}, c
        return "remember_about_me", {"personal_fact": refine_fact(offer.fact, message)}, c
    return None


_ABOUT_SPEAKER = re.compile(r"\b(?:i|i'm|i've|my|we|we're|we've|our)\b", re.IGNORECASE)
_ADDITION = re.compile(r"^\s*(?:oh,? )?(?:and|also|plus|as well as)\b[\s,]*(?:also\s+)?", re.I)
