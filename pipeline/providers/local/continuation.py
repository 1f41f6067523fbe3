"""History-aware continuations: what the prior companion turn offered, and how the reply answers it.

The prior companion turn decides (docs/intents.md, "Continuations"). Its intent and operation
data say what was offered when the pipeline produced it; when only its text is known (eval
suites, imported histories) the offer is read from the wording, and the fact from the
companion's restatement or from the operator's message before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pipeline.actions import Action
from pipeline.domain import HistoryTurn, Role
from pipeline.english.correction import correction_body, without_interjections
from pipeline.english.cues import asks_something_else, is_correction, limits_to_project
from pipeline.english.extract import forget_description, personal_fact
from pipeline.english.language import is_question, words
from pipeline.english.offers import (
    AFFIRM,
    ASKS,
    CANDIDATES,
    CONTRAST,
    CORRECT,
    CROSS_PROMOTION,
    NEGATE,
    POSITION,
    QUALIFIED,
    REFUSAL,
    RESTATED,
    SCOPE,
    STOP_USING,
    TRAILING_ALSO,
    TRAILING_CORRECTION,
    found_you,
    has_new_content,
    same_kind_of_value,
)
from pipeline.english.refine import shares_content
from pipeline.providers.base import ClassifyRequest

OfferKind = Literal["remember", "retraction", "ambiguous", "cross_promotion"]
ReplyKind = Literal["confirm", "reject", "decline", "refine", "choose", "other"]


@dataclass(frozen=True)
class Offer:
    """What the prior companion turn is waiting for an answer to."""

    kind: OfferKind
    fact: str = ""
    description: str = ""
    # The intent that asked (forget_about_me or retract_knowledge for a retraction question)
    intent: str = "remember_about_me"
    # What the offer listed: display numbers and texts (candidates of an ambiguous match)
    items: tuple[tuple[int, str], ...] = ()
    # The display number of the one fact or note the offer is about, when known
    number: int | None = None


def _previous_operator(history: tuple[HistoryTurn, ...]) -> HistoryTurn | None:
    for turn in reversed(history[:-1]):
        if turn.role is Role.OPERATOR:
            return turn
    return None


def _restated_fact(text: str) -> str:
    """The fact as the companion restated it ("I'll remember that you ..."), or ""."""
    for pattern in RESTATED:
        found = pattern.search(text)
        if found:
            fact = CROSS_PROMOTION.sub("", found.group("fact")).strip(" ,.;:?")
            fact = TRAILING_ALSO.sub("", fact)
            if fact and found_you(fact):
                return fact[:1].upper() + fact[1:]
    return ""


def _offered_fact(prior: HistoryTurn, history: tuple[HistoryTurn, ...]) -> str:
    """The offered fact: from operation data, else the companion's restatement when it is a
    whole clause ("you avoid gluten"), else the operator's message before the offer."""
    data = prior.operation_data
    for key in ("personal_fact", "knowledge"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip() if key == "personal_fact" else personal_fact(value)
    restated = _restated_fact(prior.content)
    if restated and not restated.lower().startswith("your "):
        return restated
    operator = _previous_operator(history)
    return personal_fact(operator.content) if operator is not None else restated


def pending_offer(request: ClassifyRequest) -> Offer | None:
    """The offer the prior companion turn made, if the message answers one."""
    prior = request.prior_companion
    if prior is None:
        return None
    data = prior.operation_data
    action = data.get("action")
    text = prior.content
    asks = bool(ASKS.search(text))
    if prior.intent in ("forget_about_me", "retract_knowledge"):
        if action == Action.CONFIRM_RETRACTION or (
            action is None and asks and not CANDIDATES.search(text)
        ):
            matched = str(data.get("matched_fact") or "")
            if not matched:
                found = STOP_USING.search(text)
                matched = found.group("fact").strip() if found else ""
            if not has_new_content(matched):
                matched = ""
            operator = _previous_operator(request.history)
            described = forget_description(operator.content) if operator is not None else ""
            number = data.get("assertion_display_number")
            return Offer(
                "retraction",
                fact=matched,
                description=matched or described,
                intent=str(prior.intent),
                number=number if isinstance(number, int) else None,
            )
        if action == Action.AMBIGUOUS or (action is None and CANDIDATES.search(text)):
            return Offer(
                "ambiguous",
                description=str(data.get("forget_description") or ""),
                intent=str(prior.intent),
                items=_listed(data.get("candidates")),
            )
        return None
    if CROSS_PROMOTION.search(text) and asks:
        # The offer names the personal part of a project note; the note itself may be mostly
        # about the project ("keep the runs flat, my hip flares up on hills").
        restated = _restated_fact(text)
        return Offer("cross_promotion", fact=restated or _offered_fact(prior, request.history))
    offered = action in (Action.HELD, Action.REFINED) or (action is None and asks)
    if prior.intent == "remember_about_me" and offered:
        return Offer("remember", fact=_offered_fact(prior, request.history))
    return _earlier_offer(request)


def _earlier_offer(request: ClassifyRequest) -> Offer | None:
    """An offer made before the last exchange and still held, when the message plainly
    corrects something ("actually it's the day shift not nights" after a question in
    between): the newest such offer, named by its number."""
    if not is_correction(request.message):
        return None
    numbers = earlier_offers(request)
    if not numbers:
        return None
    for turn in reversed(request.history):
        data = turn.operation_data
        if turn.role is Role.COMPANION and data.get("assertion_display_number") == numbers[-1]:
            fact = str(data.get("personal_fact") or "")
            return Offer("remember", fact=fact, number=numbers[-1]) if fact else None
    return None


def _listed(raw: object) -> tuple[tuple[int, str], ...]:
    """(display number, text) of the items an operation data list names."""
    if not isinstance(raw, list):
        return ()
    return tuple(
        (item["display_number"], str(item.get("content", "")))
        for item in raw
        if isinstance(item, dict) and isinstance(item.get("display_number"), int)
    )


def offered_many(request: ClassifyRequest) -> tuple[tuple[int, str], ...]:
    """The facts the prior companion turn offered together (several at once), if it did."""
    prior = request.prior_companion
    if prior is None or prior.operation_data.get("action") != Action.HELD_MANY:
        return ()
    return _listed(prior.operation_data.get("facts"))


def earlier_offers(request: ClassifyRequest) -> tuple[int, ...]:
    """Display numbers of single facts that recent companion turns offered and no later turn
    settled: what "yes, both are right" confirms besides the newest offer."""
    offered: dict[int, None] = {}
    for turn in request.history:
        data = turn.operation_data
        number = data.get("assertion_display_number")
        if turn.role is not Role.COMPANION or not isinstance(number, int):
            continue
        if turn.intent == "remember_about_me" and data.get("action") in (
            Action.HELD,
            Action.REFINED,
        ):
            offered[number] = None
        else:  # committed, rejected, or a note's number: never confirmed by a later "both"
            offered.pop(number, None)
    return tuple(offered)


def read_reply(
    message: str, offer: Offer, reply_scores: dict[str, float], project: str | None = None
) -> ReplyKind:
    """Whether the message confirms, rejects, declines, refines — or is something else.

    Sentence form decides when it is clear (a leading yes / no / actually, "X, not Y", a
    scope like "just this project"); otherwise the nearest reply examples do, and a long
    message that is none of these is a new message ("other").
    """
    text = without_interjections(message)
    if asks_something_else(text):  # "wait, what else can you do?" is a new message
        return "other"
    tokens = words(text)
    body = correction_body(text)
    new_content = has_new_content(body)
    correcting = bool(CORRECT.match(text) or TRAILING_CORRECTION.search(text))
    if offer.kind == "ambiguous":
        if NEGATE.match(text) and not new_content:
            return "reject"
        if POSITION.search(text):
            return "choose"
        return "choose" if len(tokens) <= 8 and not text.endswith("?") else "other"
    if offer.kind == "cross_promotion" and (
        SCOPE.search(text)
        or NEGATE.match(text)
        or (project is not None and limits_to_project(text, project))
    ):
        return "decline"
    if REFUSAL.search(text) and not (AFFIRM.match(text) and offer.kind == "retraction"):
        return "reject"
    if new_content and text.rstrip().endswith("?"):
        return "other"  # "no clue what to wear tomorrow, any ideas?" asks something new
    if correcting and new_content:
        return "refine"
    if AFFIRM.match(text):
        if new_content and QUALIFIED.search(text):
            return "refine"
        return "confirm"
    if NEGATE.match(text):
        if new_content and offer.kind != "retraction":
            # "no, just shrimp" corrects; "nah, my flight got moved to friday and ..." that
            # shares nothing with the offer says something else, and the offer stays held
            related = (
                len(words(body)) <= 4
                or shares_content(body, offer.fact)
                or same_kind_of_value(body, offer.fact)
            )
            return "refine" if related else "other"
        return "reject"
    if new_content and CONTRAST.search(text) and len(tokens) <= 12:
        return "refine"
    best = max(reply_scores, key=lambda k: reply_scores[k]) if reply_scores else ""
    if best and reply_scores[best] >= REPLY_MIN_SIMILARITY and len(tokens) <= 8:
        kind = {"decline_cross_promotion": "decline"}.get(best, best)
        if kind == "decline" and offer.kind != "cross_promotion":
            kind = "reject"
        if kind == "refine" and not new_content:
            kind = "confirm"
        return kind  # type: ignore[return-value]
    # A short value, or a statement about the same thing that names another value of a kind
    # the offer holds, corrects the offer. A statement that only shares a word with it ("car
    # is back now, all fixed", "remind me what I said about the car") is something else, and
    # the offer stays held: with no cue, the safe reading is unrelated.
    related = len(tokens) <= 4 or (
        offer.kind == "remember"
        and shares_content(body, offer.fact)
        and same_kind_of_value(body, offer.fact)
    )
    if new_content and related and not is_question(text):
        return "refine"
    return "other"


# Cosine similarity to the nearest reply examples above which their kind is trusted.
REPLY_MIN_SIMILARITY = 0.55
