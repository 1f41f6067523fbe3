"""Merging two assertions that say the same thing: the one set aside is retracted, never
erased, so `converse memory restore` brings it back and nothing it said is lost.

Both assertions get a MERGE row in their history naming the other, in the transaction of the
change; a pair either of whose members is no longer live is left alone (another worker, or
the person, got there first).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import HistoryActor, HistoryOp, NormativeForce
from pipeline.store.history import record
from pipeline.store.tables import AssertionRow

_LIVE = (AssertionRow.deleted_at.is_(None), AssertionRow.force == NormativeForce.COMMITTED.value)


def merge_into(
    session: Session,
    kept_id: int,
    merged_id: int,
    *,
    detail: dict[str, Any],
    by: HistoryActor = HistoryActor.SYSTEM,
) -> bool:
    """Retract `merged_id` as merged into `kept_id` (same engagement, both committed and
    live); False, and nothing written, when that no longer holds."""
    kept = session.get(AssertionRow, kept_id)
    if kept is None or kept.deleted_at is not None or kept.force != NormativeForce.COMMITTED:
        return False
    now = utcnow()
    rationale = f"merged into #{kept.display_number} (the same fact)"
    # The WHERE repeats the rule, so two workers merging the same pair write once.
    changed = session.execute(
        update(AssertionRow)
        .where(
            AssertionRow.id == merged_id,
            AssertionRow.engagement_id == kept.engagement_id,
            *_LIVE,
        )
        .values(
            force=NormativeForce.RETRACTED.value,
            retraction_rationale=rationale,
            updated_at=now,
        )
        .returning(AssertionRow.display_number)
    ).scalar_one_or_none()
    if changed is None:
        return False
    record(
        session,
        assertion_id=merged_id,
        engagement_id=kept.engagement_id,
        display_number=changed,
        op=HistoryOp.MERGE,
        actor=by,
        old_force=NormativeForce.COMMITTED,
        new_force=NormativeForce.RETRACTED,
        detail={**detail, "merged_into": kept.display_number, "rationale": rationale},
        at=now,
    )
    record(
        session,
        assertion_id=kept.id,
        engagement_id=kept.engagement_id,
        display_number=kept.display_number,
        op=HistoryOp.MERGE,
        actor=by,
        detail={**detail, "merged_from": changed},
        at=now,
    )
    return True
