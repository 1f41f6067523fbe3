"""The trained reader as a classifier: the reading of acts the core decides on.

The reader (docs/reader.md) says how the message answers what is pending and which spans of
it do what; this module only turns that into the core's reading: which pending thing the
companion's own last turn offered (`pending_offer`, read from the turn's operation data or
its own template wording), and each span in the form memory stores ("I'm" -> "You're", a
corrected value put in place of the old one). It reads nothing of the message itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.domain import PromptRef
from pipeline.english.refine import refine_fact
from pipeline.memory.embeddings import Embedder
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local.continuation import Offer, offered_many, pending_offer
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.providers.local_reader.stored import act_params, status_report
from pipeline.providers.reader.decode import ReadAct, ReaderOutput
from pipeline.providers.reader.encode import ReaderContext
from pipeline.providers.reader.model import Reader, read_manifest, reader
from pipeline.reading import Act, ClassifiedIntent, Reading

NAME = "local-reader"
FALLBACK = "general_conversation"
_PENDING_KIND = {
    "remember": "offer",
    "retraction": "retraction",
    "ambiguous": "candidates",
    "cross_promotion": "cross_promotion",
}


@dataclass(frozen=True)
class Pending:
    """What the previous companion turn left pending, as the reader is told it."""

    context: ReaderContext
    offer: Offer | None = None
    many: tuple[tuple[int, str], ...] = ()


def pending_of(request: ClassifyRequest) -> Pending:
    """The reader's context: the pending kind the companion's last turn left, its items."""
    prior = request.prior_companion
    project = request.project_name is not None
    prev = prior.content if prior is not None else ""
    many = offered_many(request)
    if many:
        return Pending(ReaderContext("offers", prev, project, len(many)), many=many)
    offer = pending_offer(request)
    if offer is None:
        return Pending(ReaderContext("none", prev, project))
    items = len(offer.items) if offer.kind == "ambiguous" else 0
    return Pending(ReaderContext(_PENDING_KIND[offer.kind], prev, project, items), offer=offer)


class ReaderClassifier:
    """Reads with the trained reader over the shipped MiniLM encoder: offline, deterministic."""

    name = NAME

    def __init__(self, embedder: Embedder | None = None, loaded: Reader | None = None) -> None:
        # The encoder's sentence embeddings are lent to the pipeline for semantic forget/recall.
        self.embedder: Embedder = embedder or MiniLMEmbedder()
        self._reader = loaded
        # Read once: every row names the heads' hash, and a message must not reread the file.
        sha = str((loaded.manifest if loaded else read_manifest()).get("heads_sha256", ""))
        self.model = f"trained reader (heads {sha[:12]}) over {self.embedder.model_name}"
        # The reader's weights stand where a prompt would: their hash keys its answers.
        self.prompt_ref = PromptRef(family="local_model/reader", version=sha[:12], sha256=sha)

    @property
    def reader(self) -> Reader:
        """The process's reader, loaded on first use."""
        if self._reader is None:
            self._reader = reader()
        return self._reader

    def warm_up(self) -> None:
        """Load the reader now rather than on the first message."""
        _ = self.reader

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """The reading of one message in its context; never raises for an odd message."""
        pending = pending_of(request)
        out = self.reader.read(request.message, pending.context)
        acts = [*answer_acts(out, pending), *own_acts(out, pending, request.message)]
        if not acts:
            acts = [Act(intent=FALLBACK, question=out.question)]
        meta: dict[str, Any] = {
            "provider": NAME,
            "model": self.model,
            "prompt_refs": (self.prompt_ref,),
            "confidence": confidence(out),
        }
        first = acts[0]
        checked = validated(first.intent, first.params, reading=_dump(first.reading), **meta)
        return checked.model_copy(
            update={
                "acts": tuple(acts),
                **{k: getattr(first, k) for k in ("restore", "question", "profile_field")},
            }
        )


def _dump(reading: Reading | None) -> dict[str, Any] | None:
    return reading.model_dump() if reading is not None else None


def confidence(out: ReaderOutput) -> float:
    """The reader's probability of what it decided: the relation when something is pending,
    else the intent it read."""
    if out.relation != "none":
        return round(out.probs["relation"].get(out.relation, 0.0), 4)
    return round(out.probs["intent"].get(out.intent, 0.0), 4)


def answer_acts(out: ReaderOutput, pending: Pending) -> list[Act]:
    """The act that answers what is pending, if the message answers it."""
    relation = out.relation
    if relation in ("none", "unrelated"):
        return []
    if pending.many:
        return [_answer_many(out, pending.many)]
    offer = pending.offer
    if offer is None:
        return []
    if relation == "reject":
        return [Act(intent=FALLBACK, reading=Reading(relation="reject"))]
    if offer.kind == "ambiguous":
        return [_choice(out, offer)]
    if offer.kind == "retraction":
        return [_retraction(out, offer)]
    field = out.profile_field  # the field the offered or corrected fact changes
    if relation in ("confirm", "choose"):  # one offer: naming it is taking it
        params = {"personal_fact": offer.fact} if offer.fact else {}
        confirm = Reading(relation="confirm")
        return [
            Act(intent="remember_about_me", params=params, reading=confirm, profile_field=field)
        ]
    corrected = refine_fact(offer.fact, out.corrected.text if out.corrected else "")
    chosen = (offer.number,) if offer.number is not None else ()
    reading = Reading(relation="correct", corrected=corrected, chosen=chosen)
    params = {"personal_fact": corrected}
    return [Act(intent="remember_about_me", params=params, reading=reading, profile_field=field)]


def _answer_many(out: ReaderOutput, many: tuple[tuple[int, str], ...]) -> Act:
    """A reply to several facts offered at once: all, none, or the ones it names."""
    if out.relation == "reject":
        return Act(intent="remember_about_me", reading=Reading(relation="reject"))
    if out.relation == "confirm" or out.chosen == "all":
        return Act(intent="remember_about_me", reading=Reading(relation="confirm"))
    numbers = _numbers(out, many)
    if not numbers:  # a choice that names nothing the reader is sure of: the core asks
        return Act(intent="remember_about_me", reading=Reading(relation="unrelated"))
    return Act(intent="remember_about_me", reading=Reading(relation="choose", chosen=numbers))


def _numbers(out: ReaderOutput, items: tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """The display numbers of the listed items the reader chose, by their place in the list."""
    positions = out.chosen if isinstance(out.chosen, tuple) else ()
    return tuple(items[n - 1][0] for n in positions if 0 < n <= len(items))


def _choice(out: ReaderOutput, offer: Offer) -> Act:
    """A reply to a list of forget candidates: the one named, or none (the core asks again)."""
    numbers = _numbers(out, offer.items)
    param = _forget_param(offer)
    chosen = tuple(numbers[:1])
    return Act(
        intent=offer.intent,
        params={param: offer.description or "that"},
        reading=Reading(relation="choose", chosen=chosen),
    )


def _retraction(out: ReaderOutput, offer: Offer) -> Act:
    """A reply to "shall I stop using …?": yes, a different description, or ask again."""
    param = _forget_param(offer)
    described = offer.description or offer.fact
    if out.relation == "confirm":
        return Act(
            intent=offer.intent, params={param: described}, reading=Reading(relation="confirm")
        )
    if out.relation == "correct" and out.corrected is not None:
        text = out.corrected.text.strip()
        return Act(
            intent=offer.intent,
            params={param: text},
            reading=Reading(relation="correct", corrected=text),
        )
    return Act(intent=offer.intent, params={param: described}, reading=Reading(relation="choose"))


def _forget_param(offer: Offer) -> str:
    return "knowledge_description" if offer.intent == "retract_knowledge" else "forget_description"


def own_acts(out: ReaderOutput, pending: Pending, message: str) -> list[Act]:
    """The message's own acts besides an answer: facts, questions, forget requests, statuses.
    An answer's chat ("yes — thanks!") is no act of its own."""
    acts = [act for read in out.acts if (act := _own(read, message)) is not None]
    if (
        out.relation in ("confirm", "reject", "correct", "choose")
        and pending.context.pending != "none"
    ):
        acts = [a for a in acts if a.intent != FALLBACK or a.status is not None]
    return acts


def _own(read: ReadAct, message: str) -> Act | None:
    span = read.span.text if read.span is not None else ""
    if read.status:
        report = status_report(span)
        return Act(intent=FALLBACK, status=report) if report is not None else None
    params = act_params(read.intent, span, message)
    checked = validated(read.intent, params, provider=NAME)
    stores = read.intent in ("remember_about_me", "add_knowledge")
    if checked.error is not None or (stores and not params):  # nothing to store: no act
        return None
    field = read.profile_field if read.intent == "remember_about_me" else None
    return Act(
        intent=read.intent,
        params=checked.params,
        question=read.question,
        restore=read.restore,
        profile_field=field,
    )
