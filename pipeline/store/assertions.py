"""Assertions: create, change force, amend, pin, restore, touch and erase; and, from
pipeline/store/assertion_reads.py, the queries the handlers need (the same names as ever).

Every write records its history row (pipeline/store/history.py) in the same transaction.
Soft-deleted assertions (the lifecycle sweep, pipeline/store/lifecycle.py) are invisible to
every query unless one asks for them by name (`include_deleted`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.categories import load_categories
from pipeline.clock import as_utc, utcnow
from pipeline.domain import (
    ActorKind,
    Assertion,
    HistoryActor,
    HistoryOp,
    NormativeForce,
    ProfileField,
)
from pipeline.errors import NotFound
from pipeline.store.assertion_reads import (
    VISIBLE,
    _assertion,
    _row,
    committed_newest,
    committed_page,
    count_by_force,
    find_live,
    get_assertion,
    get_by_number,
    ids_by_number,
    latest_held_by_companion,
    list_assertions,
    newest_containing,
)
from pipeline.store.erasure import erase_assertions
from pipeline.store.history import record
from pipeline.store.tables import AssertionRow, EngagementRow


def _recorded(
    row: AssertionRow,
    op: HistoryOp,
    by: HistoryActor,
    *,
    old_content: str | None = None,
    old_force: str | None = None,
    detail: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The keyword arguments of `history.record` for a write that left `row` as it is."""
    return {
        "assertion_id": row.id,
        "engagement_id": row.engagement_id,
        "display_number": row.display_number,
        "op": op,
        "actor": by,
        "old_content": old_content,
        "new_content": row.content if old_content is not None or op is HistoryOp.ADD else None,
        "old_force": old_force,
        "new_force": row.force if old_force is not None or op is HistoryOp.ADD else None,
        "detail": detail,
        "at": row.updated_at,
    }


def add_assertion(
    session: Session,
    engagement_id: int,
    content: str,
    actor: ActorKind,
    force: NormativeForce = NormativeForce.HELD,
    created_at: datetime | None = None,
    *,
    by: HistoryActor | None = None,
    importance: float | None = None,
    category: str | None = None,
    profile_field: ProfileField | None = None,
) -> Assertion:
    """Add an assertion with the engagement's next display number (never an erased one's).

    `by` is who wrote it for the history (default: the assertion's own actor); `category`
    defaults to the engagement kind's (pipeline/categories.yaml); `profile_field` is the
    sensitive field a personal fact changes (pipeline/memory/consent.py)."""
    # The UPDATE takes the engagement row's lock on PostgreSQL, so concurrent adds queue.
    number, visibility = session.execute(
        update(EngagementRow)
        .where(EngagementRow.id == engagement_id)
        .values(last_display_number=EngagementRow.last_display_number + 1)
        .returning(EngagementRow.last_display_number, EngagementRow.visibility)
    ).one()
    config = load_categories()
    category = config.checked(category) if category is not None else config.default_for(visibility)
    moment = created_at or utcnow()
    row = AssertionRow(
        engagement_id=engagement_id,
        display_number=number,
        content=content,
        actor=actor.value,
        force=force.value,
        created_at=moment,
        updated_at=moment,
        last_accessed_at=moment,
        pinned=False,
        category=category,
        profile_field=_stored_field(profile_field),
        **({"importance": checked_importance(importance)} if importance is not None else {}),
    )
    session.add(row)
    session.flush()
    record(session, **_recorded(row, HistoryOp.ADD, by or HistoryActor(actor.value)))
    return _assertion(row)


def _stored_field(field: ProfileField | None) -> str | None:
    """A profile field as stored: NONE (the reading that it changes none) stores nothing."""
    return None if field is None or field is ProfileField.NONE else field.value


def checked_importance(value: float) -> float:
    """An importance, which must lie in 0..1."""
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"importance must lie between 0 and 1, not {value}")
    return float(value)


def _touched(row: AssertionRow) -> None:
    row.updated_at = row.last_accessed_at = utcnow()


def set_force(
    session: Session,
    assertion_id: int,
    force: NormativeForce,
    rationale: str | None = None,
    *,
    by: HistoryActor,
) -> Assertion:
    """Commit, retract (with a rationale) or restore an assertion; a retracted one made live
    again is a RESTORE in its history, any other change an UPDATE."""
    row = _row(session, assertion_id)
    before = row.force
    row.force = force.value
    row.retraction_rationale = rationale if force is NormativeForce.RETRACTED else None
    _touched(row)
    session.flush()
    restored = before == NormativeForce.RETRACTED.value and force is not NormativeForce.RETRACTED
    op = HistoryOp.RESTORE if restored else HistoryOp.UPDATE
    detail = {"rationale": rationale} if force is NormativeForce.RETRACTED and rationale else None
    record(session, **_recorded(row, op, by, old_force=before, detail=detail))
    return _assertion(row)


def amend_content(
    session: Session,
    assertion_id: int,
    content: str,
    *,
    by: HistoryActor,
    profile_field: ProfileField | None = None,
) -> Assertion:
    """Replace an assertion's content, keeping its force; `profile_field` is the sensitive
    field the new content changes."""
    row = _row(session, assertion_id)
    before = row.content
    row.content = content
    row.profile_field = _stored_field(profile_field)
    _touched(row)
    session.flush()
    record(session, **_recorded(row, HistoryOp.UPDATE, by, old_content=before))
    return _assertion(row)


def set_pinned(session: Session, assertion_id: int, pinned: bool, *, by: HistoryActor) -> Assertion:
    """Pin (the lifecycle sweep never sets it aside) or unpin an assertion."""
    row = _row(session, assertion_id)
    before = bool(row.pinned)
    row.pinned = pinned
    _touched(row)
    session.flush()
    detail = {"pinned": [before, pinned]}
    record(session, **_recorded(row, HistoryOp.UPDATE, by, detail=detail))
    return _assertion(row)


def set_importance(
    session: Session, assertion_id: int, importance: float, *, by: HistoryActor
) -> Assertion:
    """Set how much an assertion matters (0..1); below the sweep's threshold it may be set
    aside when unused."""
    row = _row(session, assertion_id)
    before = row.importance
    row.importance = checked_importance(importance)
    _touched(row)
    session.flush()
    detail = {"importance": [before, row.importance]}
    record(session, **_recorded(row, HistoryOp.UPDATE, by, detail=detail))
    return _assertion(row)


def set_category(
    session: Session, assertion_id: int, category: str, *, by: HistoryActor
) -> Assertion:
    """File an assertion under another category (one of pipeline/categories.yaml)."""
    row = _row(session, assertion_id)
    before = row.category
    row.category = load_categories().checked(category)
    _touched(row)
    session.flush()
    detail = {"category": [before, row.category]}
    record(session, **_recorded(row, HistoryOp.UPDATE, by, detail=detail))
    return _assertion(row)


def restore_deleted(session: Session, assertion_id: int, *, by: HistoryActor) -> Assertion:
    """Bring a soft-deleted assertion back as it was (its force unchanged)."""
    row = _row(session, assertion_id, include_deleted=True)
    if row.deleted_at is None:
        raise NotFound(f"assertion {assertion_id} is not soft-deleted", "nothing to restore")
    deleted_at = as_utc(row.deleted_at).isoformat()
    row.deleted_at = None
    _touched(row)
    session.flush()
    detail = {"soft_deleted_at": deleted_at}
    record(session, **_recorded(row, HistoryOp.RESTORE, by, detail=detail))
    return _assertion(row)


# Built once, and run on the bare connection: the per-turn hot path (see `touch`).
_TOUCH = (
    update(AssertionRow)
    .where(
        AssertionRow.id.in_(bindparam("ids", expanding=True)),
        AssertionRow.last_accessed_at < bindparam("cutoff"),
    )
    .values(last_accessed_at=bindparam("now"))
)


def touch(
    session: Session | Connection, assertion_ids: Collection[int], now: datetime, every: timedelta
) -> None:
    """Mark these assertions used at `now` (they went into a prompt or a recall) in one
    statement; rows already marked within `every` are left alone, so a turn rewrites no row
    it does not have to."""
    if not assertion_ids:
        return
    conn = session.connection() if isinstance(session, Session) else session
    conn.execute(_TOUCH, {"ids": sorted(assertion_ids), "cutoff": now - every, "now": now})


def erase(session: Session, assertion_ids: Iterable[int], *, by: HistoryActor) -> int:
    """Erase assertions permanently (see pipeline.store.erasure); returns how many."""
    return erase_assertions(session, assertion_ids, actor=by).assertions


__all__ = [
    "VISIBLE",
    "add_assertion",
    "amend_content",
    "checked_importance",
    "committed_newest",
    "committed_page",
    "count_by_force",
    "erase",
    "find_live",
    "get_assertion",
    "get_by_number",
    "ids_by_number",
    "latest_held_by_companion",
    "list_assertions",
    "newest_containing",
    "restore_deleted",
    "set_category",
    "set_force",
    "set_importance",
    "set_pinned",
    "touch",
]
