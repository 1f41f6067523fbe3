"""Replies to "You want me to stop using X?": one rule for personal facts and project notes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pipeline.domain import Assertion, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.cues import is_affirmation, is_rejection, names_a_position, without_cues
from pipeline.memory.matching import keyword_score, keywords
from pipeline.store import assertions as repo

_POSITION_WORDS = frozenset(
    ["first", "second", "third", "fourth", "fifth", "last", "latter", "former", "other", "one"]
)


def answer_to_confirmation(
    ctx: HandlerContext,
    data: dict[str, Any],
    *,
    retract: Callable[[int], RouteResult | None],
    confirm: Callable[[Assertion], RouteResult],
    kept: Callable[[str], RouteResult],
) -> RouteResult | None:
    """Yes retracts what was matched, no keeps it, a position that was never offered ("the
    second one" after a single match) asks again; None when the reply describes something
    else, to be matched anew (see `corrected_description`)."""
    matched_id = data.get("matched_assertion_id")
    if not isinstance(matched_id, int):
        return None
    message = ctx.message
    if is_rejection(message):
        return kept(str(data.get("matched_fact", "")))
    if not message or is_affirmation(message):
        return retract(matched_id)
    if names_a_position(message) and not keywords(without_cues(message)) - _POSITION_WORDS:
        try:
            again = confirm(repo.get_assertion(ctx.session, matched_id))
        except NotFound:
            return None
        update = {**again.operation_data, "asked_again": True}
        return again.model_copy(update={"operation_data": update})
    return None


def corrected_description(ctx: HandlerContext, fallback: str) -> str:
    """What a reply to a confirmation asks for instead ("no, my birthday instead")."""
    corrected = without_cues(ctx.message)
    return corrected if keywords(corrected) else fallback


_NUMBER = re.compile(r"#?\b(\d{1,6})\b")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}


def pick_candidate(description: str, candidates: list[dict[str, Any]]) -> int | None:
    """A reply to an ambiguous match that names one candidate: by number ("#2"), position
    ("the second one") or words only one of them has ("the front squat one")."""
    numbers = {c["display_number"] for c in candidates}
    for found in _NUMBER.findall(description):
        if int(found) in numbers:
            return int(found)
    lowered = description.lower()
    for word, position in _ORDINALS.items():
        if re.search(rf"\b{word}\b", lowered) and abs(position) <= len(candidates):
            index = position if position < 0 else position - 1
            return int(candidates[index]["display_number"])
    keys = keywords(without_cues(description)) - _POSITION_WORDS
    scored = [(keyword_score(keys, str(c["content"])), c) for c in candidates] if keys else []
    best = max((score for score, _ in scored), default=0)
    chosen = [c for score, c in scored if score == best and best > 0]
    return int(chosen[0]["display_number"]) if len(chosen) == 1 else None
