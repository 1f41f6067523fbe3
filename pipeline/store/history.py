"""Assertion history: one row per write, written by the repository functions themselves.

Every function in pipeline/store that changes an assertion (add, amend, change force, pin,
soft-delete, restore, erase, purge) calls `record` in the same transaction as the change, so
a write and its history row are stored together or not at all, and no caller can leave one
out. Rows outlive their assertion; erasure blanks their text (`blank_text`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.domain import HistoryActor, HistoryEntry, HistoryOp, NormativeForce
from pipeline.store.changes import record_change
from pipeline.store.tables import HistoryRow


def record(
    session: Session | Connection,
    *,
    assertion_id: int,
    engagement_id: int,
    display_number: int,
    op: HistoryOp,
    actor: HistoryActor,
    old_content: str | None = None,
    new_content: str | None = None,
    old_force: NormativeForce | str | None = None,
    new_force: NormativeForce | str | None = None,
    detail: dict[str, Any] | None = None,
    at: datetime | None = None,
) -> None:
    """Append one history row (in the caller's transaction), and log the change at the
    engagement's next memory revision (pipeline/store/changes.py)."""
    moment = at or utcnow()
    event = _change_event(op, new_force, content_changed=old_content is not None)
    if event is not None:
        record_change(session, engagement_id, assertion_id, event, moment)
    session.execute(
        insert(HistoryRow),
        [
            {
                "assertion_id": assertion_id,
                "engagement_id": engagement_id,
                "display_number": display_number,
                "op": op.value,
                "actor": actor.value,
                "old_content": old_content,
                "new_content": new_content,
                "old_force": _force(old_force),
                "new_force": _force(new_force),
                "detail": detail or {},
                "created_at": moment,
            }
        ],
    )


def record_links(
    session: Session | Connection,
    *,
    assertion_id: int,
    engagement_id: int,
    display_number: int,
    actor: HistoryActor,
    links: Sequence[tuple[int, float]],
    at: datetime,
) -> None:
    """Append one LINK row per (linked display number, strength), in one statement. A link
    changes no text or force, so the memory delta does not count it."""
    if not links:
        return
    conn = session.connection() if isinstance(session, Session) else session
    conn.execute(
        insert(HistoryRow),
        [
            {
                "assertion_id": assertion_id,
                "engagement_id": engagement_id,
                "display_number": display_number,
                "op": HistoryOp.LINK.value,
                "actor": actor.value,
                "old_content": None,
                "new_content": None,
                "old_force": None,
                "new_force": None,
                "detail": {"linked_number": number, "strength": round(strength, 4)},
                "created_at": at,
            }
            for number, strength in links
        ],
    )


def _change_event(
    op: HistoryOp, new_force: NormativeForce | str | None, *, content_changed: bool
) -> str | None:
    """What the memory delta calls a write; None for what changes no text or force (a pin,
    an importance, a category, a link)."""
    if op is HistoryOp.UPDATE:
        if new_force is not None:
            return NormativeForce(new_force).value  # committed, retracted or held again
        return "updated" if content_changed else None
    return _EVENTS.get(op)


_EVENTS = {
    HistoryOp.ADD: "created",
    HistoryOp.MERGE: "merged",
    HistoryOp.TTL: "soft_deleted",
    HistoryOp.RESTORE: "restored",
    HistoryOp.DELETE: "deleted",
}


def _force(force: NormativeForce | str | None) -> str | None:
    return None if force is None else NormativeForce(force).value


def _entry(row: HistoryRow | Row[Any]) -> HistoryEntry:
    return HistoryEntry(
        id=row.id,
        assertion_id=row.assertion_id,
        engagement_id=row.engagement_id,
        display_number=row.display_number,
        op=HistoryOp(row.op),
        actor=HistoryActor(row.actor),
        old_content=row.old_content,
        new_content=row.new_content,
        old_force=NormativeForce(row.old_force) if row.old_force else None,
        new_force=NormativeForce(row.new_force) if row.new_force else None,
        detail=dict(row.detail or {}),
        created_at=as_utc(row.created_at),
    )


def history_of(
    session: Session | Connection, engagement_id: int, display_number: int
) -> list[HistoryEntry]:
    """Every write to the engagement's #display_number, oldest first (erased ones included)."""
    rows = session.scalars(
        select(HistoryRow)
        .where(
            HistoryRow.engagement_id == engagement_id,
            HistoryRow.display_number == display_number,
        )
        .order_by(HistoryRow.id)
    )
    return [_entry(r) for r in rows]


def history_of_engagement(
    session: Session | Connection, engagement_id: int
) -> dict[int, list[HistoryEntry]]:
    """Every write to the engagement's assertions, by display number, each oldest first."""
    rows = session.scalars(
        select(HistoryRow)
        .where(HistoryRow.engagement_id == engagement_id)
        .order_by(HistoryRow.display_number, HistoryRow.id)
    )
    found: dict[int, list[HistoryEntry]] = {}
    for row in rows:
        found.setdefault(row.display_number, []).append(_entry(row))
    return found


# Detail keys whose values are never a person's words (flags, numbers, dates, vocabulary);
# every other key (a retraction's `rationale` may quote the person) goes at erasure.
_TEXT_FREE = frozenset(
    {
        "pinned",
        "importance",
        "last_accessed_at",
        "purge_after",
        "reason",
        "soft_deleted_at",
        "category",
        "linked_number",
        "strength",
    }
)


def blank_text(session: Session | Connection, assertion_ids: Collection[int]) -> None:
    """Remove every word of these assertions' history: old and new content, and any detail
    that may hold text. What was done, by whom and when, and the forces, stay; a row that
    lost text says so (`detail.erased`)."""
    if not assertion_ids:
        return
    rows = session.execute(
        select(HistoryRow.id, HistoryRow.old_content, HistoryRow.new_content, HistoryRow.detail)
        .where(HistoryRow.assertion_id.in_(sorted(assertion_ids)))
        .order_by(HistoryRow.id)
    ).all()
    for row_id, old, new, detail in rows:
        kept = {k: v for k, v in (detail or {}).items() if k in _TEXT_FREE}
        if old is None and new is None and kept == (detail or {}):
            continue  # nothing of the person's in it
        session.execute(
            update(HistoryRow)
            .where(HistoryRow.id == row_id)
            .values(old_content=None, new_content=None, detail={**kept, "erased": True})
        )


def numbers_with_history(session: Session | Connection, engagement_id: int) -> Sequence[int]:
    """Display numbers of the engagement that have any history, ascending."""
    return list(
        session.scalars(
            select(HistoryRow.display_number)
            .where(HistoryRow.engagement_id == engagement_id)
            .distinct()
            .order_by(HistoryRow.display_number)
        )
    )
