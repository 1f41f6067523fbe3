"""Assertions read: by id or number, listed, searched for text, the committed pages the
memory block and project context show, and counts.

Soft-deleted assertions (the lifecycle sweep, pipeline/store/lifecycle.py) are invisible to
every query here unless one asks for them by name (`include_deleted`). The writes are in
pipeline/store/assertions.py, which also exports these names.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Row, Select, and_, bindparam, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.categories import ContextMode, load_categories
from pipeline.clock import as_utc
from pipeline.domain import ActorKind, Assertion, NormativeForce, ProfileField
from pipeline.errors import NotFound
from pipeline.store.hot_sql import HotStatement
from pipeline.store.rows import ASSERTION_COLUMNS, assertion_from_row
from pipeline.store.tables import AssertionRow

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
        profile_field=ProfileField(row.profile_field) if row.profile_field else None,
    )


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
def _committed_page(categories: tuple[str, ...]) -> HotStatement:
    # One statement per set of categories, with the names as plain bound values: an
    # expanding IN parameter is re-rendered at every execution, which costs more than the
    # block's query itself on SQLite.
    # `marked`: whether the row was marked used since `marked_after`, compared in SQL (reading
    # the timestamps would cost more), so a turn skips the marking statement when all are.
    marked = (AssertionRow.last_accessed_at >= bindparam("marked_after")).label("marked")
    columns = (AssertionRow.id, AssertionRow.content, AssertionRow.created_at, marked)
    return HotStatement(
        _newest_committed(columns, categories).offset(bindparam("offset", literal_execute=False))
    )


@lru_cache(maxsize=8)
def _committed_newest(categories: tuple[str, ...]) -> HotStatement:
    return HotStatement(_newest_committed(_COLUMNS, categories))


def _newest_committed(
    columns: tuple[Any, ...], categories: tuple[str, ...]
) -> Select[*tuple[Any, ...]]:
    """An engagement's visible committed assertions of these categories, newest first."""
    return (
        select(*columns)
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
    rows = statement.rows(session, {"engagement_id": engagement_id, "limit": limit})
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
    rows = statement.tuples(session, params)
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
