"""Applying a turn's decision in its write transaction, or deciding again when memory moved
while the reply was written (pipeline/converse.py; docs/reliability.md)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from pipeline.domain import RouteResult
from pipeline.intents import HandlerContext, StaleDecision, apply_decision
from pipeline.store.changes import current_revision, current_revisions


def apply_or_redecide(
    session: Session,
    decide: Callable[[Session], tuple[HandlerContext, RouteResult]],
    decision: HandlerContext,
    result: RouteResult,
    revision: tuple[int, ...],
    engagement_id: int | None,
) -> tuple[RouteResult, HandlerContext, bool, int]:
    """Apply the decision in the turn's write transaction; when memory moved since it was
    read (another process wrote during the model call), decide again on what is stored now
    and apply that. Returns what was stored, its context, whether it was decided again, and
    the personal memory revision the turn leaves (what the conversation has now seen)."""
    personal_id = decision.person.personal_engagement_id
    now = current_revisions(session, personal_id, engagement_id)
    if now == revision:
        if not decision.decided.commands:
            # nothing to write: no savepoint, and the revision stays as read
            apply_decision(session, decision, result)
            return result, decision, False, now[0]
        try:
            with session.begin_nested():
                apply_decision(session, decision, result)
            return result, decision, False, _revision(session, personal_id)
        except StaleDecision:
            pass
    again, stored = decide(session)
    apply_decision(session, again, stored)
    return stored, again, True, _revision(session, personal_id)


def _revision(session: Session, personal_id: int | None) -> int:
    return current_revision(session, personal_id) if personal_id is not None else 0
