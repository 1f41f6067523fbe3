"""Assertions: create, change force, amend, pin, erase, and the queries the handlers need.

Every write records its history row (pipeline/store/history.py) in the same transaction.
Soft-deleted assertions (the lifecycle sweep, pipeline/store/lifecycle.py) are invisible to
every query here unless one asks for them by name (`include_deleted`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import Row, Select, and_, bindparam, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.categories import ContextMode, load_categories
from pipeline.clock import as_utc, utcnow
from pipeline.domain import ActorKind, Assertion, HistoryActor, HistoryOp, NormativeForce
from pipeline.errors import NotFound
from pipeline.store.erasure import erase_assertions
from pipeline.store.history import record
from pipeline.store.rows import ASSERTION_COLUMNS, assertion_from_row
from pipeline.store.tables import AssertionRow, EngagementRow

# The one visibility rule: a soft-deleted assertion reaches no prompt, list or match.
VISIBLE = AssertionRow.deleted_at.is_(None)

_COLUMNS = tuple(getattr(AssertionRow, name) for name in ASSERTION_COLUMNS)


def _listed(row: Row[*tuple[Any, ...]]) -> Assertion:
    return assertion_from_row(row)


def _assertion(row: AssertionRow) -> Assertion:
    return Assertion(
        id=row.id,
        engagement_id=row.engagement_id,
        display_number=row.display_number,
        content=row.content,
        actor=ActorKind(row.actor),
        force=NormativeForce(row.force),
        retraction_rationale=row.retraction_rationale,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        last_accessed_at=as_utc(row.last_accessed_at) if row.last_accessed_at else None,
        importance=row.importance,
        pinned=bool(row.pinned),
        deleted_at=as_utc(row.deleted_at) if row.deleted_at is not None else None,
        category=row.category,
    )


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
) -> Assertion:
    """Add an assertion with the engagement's next display number (never an erased one's).

    `by` is who wrote it for the history (default: the assertion's own actor); `category`
    defaults to the engagement kind's (pipeline/categories.yaml)."""
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
        **({"importance": checked_importance(importance)} if importance is not None else {}),
    )
    session.add(row)
    session.flush()
    record(session, **_recorded(row, HistoryOp.ADD, by or HistoryActor(actor.value)))
    return _assertion(row)


def checked_importance(value: float) -> float:
    """An importance, which must lie in 0..1."""
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"importance must lie between 0 and 1, not {value}")
    return float(value)


def _row(session: Session, assertion_id: int, include_deleted: bool = False) -> AssertionRow:
    row = session.get(AssertionRow, assertion_id)
    if row is None or (row.deleted_at is not None and not include_deleted):
        raise NotFound(f"no assertion with id {assertion_id}", "it may have been erased")
    return row


def get_assertion(session: Session, assertion_id: int, include_deleted: bool = False) -> Assertion:
    """The assertion with this id (a soft-deleted one only when asked)."""
    return _assertion(_row(session, assertion_id, include_deleted))


def get_by_number(
    session: Session, engagement_id: int, display_number: int, include_deleted: bool = False
) -> Assertion:
    """The assertion shown as #display_number in the engagement (a soft-deleted one only
    when asked)."""
    query = select(AssertionRow).where(
        AssertionRow.engagement_id == engagement_id,
        AssertionRow.display_number == display_number,
    )
    row = session.scalar(query if include_deleted else query.where(VISIBLE))
    if row is None:
        raise NotFound(f"there is no #{display_number}", "list the memory to see the numbers")
    return _assertion(row)


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
    session: Session, assertion_id: int, content: str, *, by: HistoryActor
) -> Assertion:
    """Replace an assertion's content, keeping its force."""
    row = _row(session, assertion_id)
    before = row.content
    row.content = content
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


def ids_by_number(session: Session, numbers: Iterable[tuple[int, int]]) -> set[int]:
    """Ids of the assertions with these (engagement id, display number) pairs."""
    wanted = sorted(set(numbers))
    if not wanted:
        return set()
    found = session.scalars(
        select(AssertionRow.id).where(
            or_(
                *(
                    and_(AssertionRow.engagement_id == e, AssertionRow.display_number == n)
                    for e, n in wanted
                )
            )
        )
    )
    return set(found)


def find_live(session: Session, engagement_id: int, content: str) -> Assertion | None:
    """A held or committed assertion of the engagement with this content (case ignored)."""
    row = session.scalar(
        select(AssertionRow)
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force.in_([NormativeForce.HELD.value, NormativeForce.COMMITTED.value]),
            func.lower(AssertionRow.content) == " ".join(content.split()).lower(),
            VISIBLE,
        )
        .order_by(AssertionRow.id)
        .limit(1)
    )
    return _assertion(row) if row is not None else None


def list_assertions(
    session: Session | Connection,
    engagement_id: int,
    forces: Sequence[NormativeForce] | None = None,
    limit: int | None = None,
    offset: int = 0,
    include_deleted: bool = False,
) -> list[Assertion]:
    """Assertions of an engagement, newest first, optionally only some forces; soft-deleted
    ones only when asked."""
    query = select(*_COLUMNS).where(AssertionRow.engagement_id == engagement_id)
    if not include_deleted:
        query = query.where(VISIBLE)
    if forces is not None:
        query = query.where(AssertionRow.force.in_([f.value for f in forces]))
    query = query.order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc()).offset(offset)
    if limit is not None:
        query = query.limit(limit)
    return [_listed(r) for r in session.execute(query)]


def newest_containing(
    session: Session | Connection,
    engagement_id: int,
    forces: Sequence[NormativeForce],
    limit: int,
    containing: Collection[str],
) -> list[Assertion]:
    """Among the engagement's newest `limit` visible assertions of these forces, those whose
    text contains one of `containing` (lowercase ASCII), newest first: the database scans
    those rows alone, through the engagement's index. Recall's hot path, so the statement is
    built once per number of strings."""
    patterns = {
        f"p{i}": "%" + c.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"
        for i, c in enumerate(containing)
    }
    params = {
        "engagement_id": engagement_id,
        "forces": [f.value for f in forces],
        "limit": limit,
        **patterns,
    }
    # On the connection: the ORM's execution path costs more than the query itself.
    conn = session.connection() if isinstance(session, Session) else session
    return [_listed(r) for r in conn.execute(_containing_statement(len(patterns)), params)]


@lru_cache(maxsize=32)
def _containing_statement(strings: int) -> Select[*tuple[Any, ...]]:
    newest = (
        select(AssertionRow.id)
        .where(
            AssertionRow.engagement_id == bindparam("engagement_id"),
            VISIBLE,
            AssertionRow.force.in_(bindparam("forces", expanding=True)),
        )
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
        .limit(bindparam("limit", literal_execute=False))
        .scalar_subquery()
    )
    lowered = func.lower(AssertionRow.content)
    return (
        select(*_COLUMNS)
        .where(AssertionRow.id.in_(newest))
        .where(or_(*(lowered.like(bindparam(f"p{i}"), escape="/") for i in range(strings))))
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
    )


# Built once: constructing and cache-keying a select costs more than running it on SQLite.
@lru_cache(maxsize=8)
def _committed_page(categories: tuple[str, ...]) -> Select[*tuple[Any, ...]]:
    # One statement per set of categories, with the names as plain bound values: an
    # expanding IN parameter is re-rendered at every execution, which costs more than the
    # block's query itself on SQLite.
    # `marked`: whether the row was marked used since `marked_after`, compared in SQL (reading
    # the timestamps would cost more), so a turn skips the marking statement when all are.
    marked = (AssertionRow.last_accessed_at >= bindparam("marked_after")).label("marked")
    return (
        select(AssertionRow.id, AssertionRow.content, AssertionRow.created_at, marked)
        .where(
            AssertionRow.engagement_id == bindparam("engagement_id"),
            AssertionRow.force == NormativeForce.COMMITTED.value,
            VISIBLE,
            or_(*(AssertionRow.category == name for name in categories)),
        )
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
        .limit(bindparam("limit", literal_execute=False))
        .offset(bindparam("offset", literal_execute=False))
    )


@lru_cache(maxsize=8)
def _committed_newest(categories: tuple[str, ...]) -> Select[*tuple[Any, ...]]:
    return (
        select(*_COLUMNS)
        .where(
            AssertionRow.engagement_id == bindparam("engagement_id"),
            AssertionRow.force == NormativeForce.COMMITTED.value,
            VISIBLE,
            or_(*(AssertionRow.category == name for name in categories)),
        )
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
        .limit(bindparam("limit", literal_execute=False))
    )


def committed_newest(
    session: Session | Connection, engagement_id: int, limit: int
) -> list[Assertion]:
    """The newest committed assertions of an engagement (the project context's), of the
    categories that reach conversation (context `all` or `rag`, pipeline/categories.yaml)."""
    statement = _committed_newest(load_categories().in_mode(ContextMode.ALL, ContextMode.RAG))
    rows = session.execute(statement, {"engagement_id": engagement_id, "limit": limit})
    return [_listed(r) for r in rows]


def committed_page(
    session: Session | Connection,
    engagement_id: int,
    limit: int,
    offset: int,
    marked_after: datetime,
) -> list[tuple[int, str, datetime, bool]]:
    """(id, content, created_at, marked used since `marked_after`) of committed assertions,
    newest first: the memory block's query. Only categories whose context mode is `all`
    (pipeline/categories.yaml) are in the block; the others reach a prompt through search
    alone."""
    params = {
        "engagement_id": engagement_id,
        "limit": limit,
        "offset": offset,
        "marked_after": marked_after,
    }
    statement = _committed_page(load_categories().in_mode(ContextMode.ALL))
    rows = session.execute(statement, params)
    return [(aid, content, as_utc(created), bool(m)) for aid, content, created, m in rows]


def latest_held_by_companion(session: Session, engagement_id: int) -> Assertion | None:
    """The most recent held assertion the companion offered in this engagement."""
    row = session.scalar(
        select(AssertionRow)
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force == NormativeForce.HELD.value,
            AssertionRow.actor == ActorKind.COMPANION.value,
            VISIBLE,
        )
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
        .limit(1)
    )
    return _assertion(row) if row is not None else None


def count_by_force(session: Session, engagement_id: int) -> dict[NormativeForce, int]:
    """How many assertions of each force the engagement has."""
    rows = session.execute(
        select(AssertionRow.force, func.count())
        .where(AssertionRow.engagement_id == engagement_id, VISIBLE)
        .group_by(AssertionRow.force)
    )
    counts = dict.fromkeys(NormativeForce, 0)
    for force, n in rows:
        counts[NormativeForce(force)] = int(n)
    return counts
