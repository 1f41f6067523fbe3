"""Replies to "You want me to stop using X?": one rule for personal facts and project notes,
decided by the typed reading (pipeline/domain.py, Reading), never by the reply's wording."""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.actions import Action
from pipeline.domain import Assertion, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Item, RetractionOutcome
from pipeline.memory.matching import content_words, keyword_score, match_forget
from pipeline.reading import Reading, Relation
from pipeline.store import assertions as repo


def reading_of_confirmation(
    ctx: HandlerContext, description: str, matched: Assertion | None
) -> Reading:
    """How the message answers the retraction question. An answer without a reading (an
    older classifier prompt version) is read without looking at its words: the same intent
    describing nothing, or the matched fact again, confirms; another description corrects;
    anything else is unrelated and keeps the fact."""
    if ctx.classified.reading is not None:
        return ctx.classified.reading
    prior = ctx.prior_companion
    if prior is None or ctx.classified.intent != prior.intent:
        return Reading(relation=Relation.UNRELATED)
    if not ctx.keywords(description) or (
        matched is not None
        and match_forget(description, [matched], ctx.stop_words).action != "no_match"
    ):
        return Reading(relation=Relation.CONFIRM)
    return Reading(relation=Relation.CORRECT, corrected=description)


def answer_to_confirmation(
    ctx: HandlerContext,
    asked: RetractionOutcome,
    description: str,
    *,
    retract: Callable[[int], RouteResult | None],
    confirm: Callable[[Assertion], RouteResult],
    kept: Callable[[str], RouteResult],
) -> RouteResult | None:
    """Confirm retracts what was matched, reject keeps it, a choice of something that was
    never offered ("the second one" after a single match) asks again; None when the reply
    describes something else, to be matched anew (see `corrected_description`)."""
    matched_id = asked.matched_assertion_id
    if asked.action is not Action.CONFIRM_RETRACTION or matched_id is None:
        return None
    try:
        matched: Assertion | None = repo.get_assertion(ctx.session, matched_id)
    except NotFound:  # erased or swept since it was matched
        matched = None
    reading = reading_of_confirmation(ctx, description, matched)
    if reading.relation is Relation.REJECT:
        return kept(asked.matched_fact or "")
    number = asked.assertion_display_number
    if reading.relation is Relation.CONFIRM or (
        reading.relation is Relation.CHOOSE and reading.chosen == (number,)
    ):
        return retract(matched_id)
    if reading.relation is Relation.CHOOSE:
        if matched is None:
            return None
        again = confirm(matched)
        update = {**again.operation_data, "asked_again": True}
        return again.model_copy(update={"operation_data": update})
    return None


def corrected_description(ctx: HandlerContext, fallback: str) -> str:
    """What a reply to a confirmation asks for instead ("no, my birthday instead")."""
    reading = ctx.classified.reading
    corrected = reading.corrected if reading is not None else ""
    return corrected if ctx.keywords(corrected) else fallback


_NUMBER = re.compile(r"#\s*(\d{1,6})\b")


def pick_candidate(
    reading: Reading | None,
    description: str,
    candidates: list[Item],
    stop_words: frozenset[str],
) -> int | None:
    """The one candidate of an ambiguous match that the reply names: the reading's choice,
    a `#N` the companion printed, or words only one of them has ("the front squat one")."""
    numbers = {c.display_number for c in candidates}
    if reading is not None and reading.relation is Relation.CHOOSE:
        picked = [n for n in reading.chosen if n in numbers]
        if len(picked) == 1:
            return picked[0]
    for found in _NUMBER.findall(description):
        if int(found) in numbers:
            return int(found)
    keys = content_words(description, stop_words)
    scored = [(keyword_score(keys, c.content), c) for c in candidates] if keys else []
    best = max((score for score, _ in scored), default=0)
    chosen = [c for score, c in scored if score == best and best > 0]
    return chosen[0].display_number if len(chosen) == 1 else None
