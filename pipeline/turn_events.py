"""The operational events of one turn (pipeline/store/events.py), read from what the turn
already has: its classification, its handler's result and changes, and the best similarity
its recall saw. Written in the transaction that stores the turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from pipeline.actions import Action
from pipeline.domain import MemoryChange, NormativeForce, RouteResult
from pipeline.intents.multi import HELD_MANY
from pipeline.intents.recall import BEST_SIMILARITY
from pipeline.intents.recall import INTENT as RECALL
from pipeline.reading import ClassifiedIntent
from pipeline.store.events import Event, Node, conversation_key
from pipeline.store.tables import AssertionRow

EXTRACTED = "extracted"
# A handler's matching outcome -> the event's status (forget_about_me, retract_knowledge).
_MATCHED = {
    Action.CONFIRM_RETRACTION: "ok",
    Action.AMBIGUOUS: "ambiguous",
    Action.NO_MATCH: "no_match",
}


def _op(change: MemoryChange) -> str:
    if change.before is None:
        return "create"
    if change.after is NormativeForce.RETRACTED:
        return "retract"
    if change.before is NormativeForce.RETRACTED:
        return "restore"
    return "update"  # committed, or amended


def _changed(
    session: Session, changes: tuple[MemoryChange, ...]
) -> dict[tuple[int, int], tuple[int, str]]:
    """(engagement, number) -> (assertion id, category) of the changed assertions."""
    pairs = {(c.engagement_id, c.display_number) for c in changes}
    rows = session.execute(
        select(
            AssertionRow.engagement_id,
            AssertionRow.display_number,
            AssertionRow.id,
            AssertionRow.category,
        ).where(
            or_(
                *(
                    and_(AssertionRow.engagement_id == e, AssertionRow.display_number == n)
                    for e, n in sorted(pairs)
                )
            )
        )
    )
    return {(e, n): (aid, category) for e, n, aid, category in rows}


def turn_events(
    session: Session,
    *,
    person_id: int,
    engagement_id: int | None,
    classified: ClassifiedIntent,
    result: RouteResult,
    reads: Mapping[Any, Any],
) -> list[Event]:
    """What this turn did to memory, as events (no query unless the handler wrote)."""
    classify = Event(
        Node.HOTPATH,
        "classify",
        "error" if classified.error else "ok",
        person_id=person_id,
        conversation=conversation_key(engagement_id),
    )
    events = [classify]
    data = result.operation_data
    action = data.get("action")
    if result.intent == RECALL and action in (Action.FOUND, Action.NO_MATCH):
        status = "ok" if action == Action.FOUND else "no_match"
        best = reads.get(BEST_SIMILARITY)
        events.append(replace(classify, op="search", status=status, similarity=best))
    elif isinstance(action, str) and action in _MATCHED:
        matched = data.get("matched_assertion_id")
        memory_id = matched if isinstance(matched, int) else None
        status = _MATCHED[Action(action)]
        events.append(replace(classify, op="match", status=status, memory_id=memory_id))
    if result.changes:
        found = _changed(session, result.changes)
        # Facts held by multi-fact extraction are told apart: its daily cap counts them.
        status = EXTRACTED if action == HELD_MANY else "ok"
        for change in result.changes:
            memory_id, category = found.get(
                (change.engagement_id, change.display_number), (None, None)
            )
            events.append(
                replace(
                    classify, op=_op(change), status=status, memory_id=memory_id, category=category
                )
            )
    return events
