"""The memory delta's store: each engagement's memory has a revision, raised by one for every
write to one of its assertions, and a change log row per write at its revision.

`history.record` calls `record_change` for every write, in the write's transaction, so no
write can leave it out. The increment is one upsert statement (`INSERT … ON CONFLICT DO UPDATE
SET revision = revision + 1 RETURNING revision`): on PostgreSQL it takes the counter row's
lock and on SQLite the database's write lock, so concurrent writers get distinct, gap-free
revisions. The log holds no text: a change is shown with the assertion's current text, so an
erased assertion's changes show nothing of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from sqlalchemy import bindparam, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import Executable

from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import AssertionRow, MemoryChangeRow, MemoryRevisionRow

_REVISION = select(MemoryRevisionRow.revision).where(
    MemoryRevisionRow.engagement_id == bindparam("engagement_id")
)


# Built once, for the hot path: a turn reads its personal and project revisions together.
_REVISIONS = HotStatement(
    select(MemoryRevisionRow.engagement_id, MemoryRevisionRow.revision).where(
        MemoryRevisionRow.engagement_id.in_([bindparam("first"), bindparam("second")])
    )
)


_LOG = insert(MemoryChangeRow).values(
    engagement_id=bindparam("engagement_id"),
    revision=bindparam("revision"),
    assertion_id=bindparam("assertion_id"),
    event=bindparam("event"),
    created_at=bindparam("at"),
)


def _connection(session: Session | Connection) -> Connection:
    # Statements built once, run on the connection: every memory write runs two of them.
    return session.connection() if isinstance(session, Session) else session


@lru_cache(maxsize=2)
def _raise(dialect: str) -> Executable:
    upsert = pg_insert if dialect == "postgresql" else sqlite_insert
    first = upsert(MemoryRevisionRow).values(engagement_id=bindparam("engagement_id"), revision=1)
    return first.on_conflict_do_update(
        index_elements=[MemoryRevisionRow.engagement_id],
        set_={"revision": MemoryRevisionRow.revision + 1},
    ).returning(MemoryRevisionRow.revision)


def next_revision(session: Session | Connection, engagement_id: int) -> int:
    """Raise the engagement's revision by one, atomically, and return the new revision."""
    conn = _connection(session)
    found = conn.execute(_raise(conn.dialect.name), {"engagement_id": engagement_id})
    return int(found.scalar_one())


def record_change(
    session: Session | Connection, engagement_id: int, assertion_id: int, event: str, at: datetime
) -> int:
    """Log one change at the engagement's next revision; returns that revision."""
    revision = next_revision(session, engagement_id)
    params = {
        "engagement_id": engagement_id,
        "revision": revision,
        "assertion_id": assertion_id,
        "event": event,
        "at": at,
    }
    _connection(session).execute(_LOG, params)
    return revision


def current_revision(session: Session | Connection, engagement_id: int) -> int:
    """The engagement's revision (0 before its first change)."""
    result = _connection(session).execute(_REVISION, {"engagement_id": engagement_id})
    found = result.scalar_one_or_none()
    return int(found or 0)


def current_revisions(
    session: Session | Connection, personal: int | None, project: int | None
) -> tuple[int, int]:
    """The revisions of a turn's personal memory and project (None: 0), in one query."""
    if personal is None and project is None:
        return 0, 0
    first = personal if personal is not None else project
    second = project if project is not None else personal
    rows = _REVISIONS.tuples(session, {"first": first, "second": second})
    found = {int(e): int(r) for e, r in rows}
    return (
        found.get(personal, 0) if personal is not None else 0,
        found.get(project, 0) if project is not None else 0,
    )


@dataclass(frozen=True)
class Change:
    """A logged change, with its assertion as it is now (None fields: erased or purged)."""

    revision: int
    event: str
    assertion_id: int
    content: str | None
    force: str | None
    category: str | None
    deleted: bool


def changes_since(
    session: Session | Connection, engagement_id: int, revision: int, limit: int
) -> list[Change]:
    """The newest `limit` changes after `revision`, newest first."""
    rows = session.execute(
        select(
            MemoryChangeRow.revision,
            MemoryChangeRow.event,
            MemoryChangeRow.assertion_id,
            AssertionRow.content,
            AssertionRow.force,
            AssertionRow.category,
            AssertionRow.deleted_at,
        )
        .outerjoin(AssertionRow, AssertionRow.id == MemoryChangeRow.assertion_id)
        .where(
            MemoryChangeRow.engagement_id == engagement_id,
            MemoryChangeRow.revision > revision,
        )
        .order_by(MemoryChangeRow.revision.desc())
        .limit(limit)
    )
    return [
        Change(int(rev), event, aid, content, force, category, deleted is not None)
        for rev, event, aid, content, force, category, deleted in rows
    ]
