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

from sqlalchemy import bindparam, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.store.tables import AssertionRow, MemoryChangeRow, MemoryRevisionRow

_REVISION = select(MemoryRevisionRow.revision).where(
    MemoryRevisionRow.engagement_id == bindparam("engagement_id")
)


def _dialect(session: Session | Connection) -> str:
    return (session.get_bind() if isinstance(session, Session) else session).dialect.name


def next_revision(session: Session | Connection, engagement_id: int) -> int:
    """Raise the engagement's revision by one, atomically, and return the new revision."""
    upsert = pg_insert if _dialect(session) == "postgresql" else sqlite_insert
    first = upsert(MemoryRevisionRow).values(engagement_id=engagement_id, revision=1)
    raised = first.on_conflict_do_update(
        index_elements=[MemoryRevisionRow.engagement_id],
        set_={"revision": MemoryRevisionRow.revision + 1},
    ).returning(MemoryRevisionRow.revision)
    return int(session.execute(raised).scalar_one())


def record_change(
    session: Session | Connection, engagement_id: int, assertion_id: int, event: str, at: datetime
) -> int:
    """Log one change at the engagement's next revision; returns that revision."""
    revision = next_revision(session, engagement_id)
    session.execute(
        insert(MemoryChangeRow),
        [
            {
                "engagement_id": engagement_id,
                "revision": revision,
                "assertion_id": assertion_id,
                "event": event,
                "created_at": at,
            }
        ],
    )
    return revision


def current_revision(session: Session | Connection, engagement_id: int) -> int:
    """The engagement's revision (0 before its first change)."""
    found = session.execute(_REVISION, {"engagement_id": engagement_id}).scalar_one_or_none()
    return int(found or 0)


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
