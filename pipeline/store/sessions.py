"""Sessions (a person's run of turns without a long gap) and working memory documents."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.store.tables import SessionRow, WorkingMemoryRow


@dataclass(frozen=True)
class OpenSession:
    """The session a turn belongs to, and the context fixed at its start."""

    id: int
    started_at: datetime
    last_turn_at: datetime
    context: str


# Built once: the person's newest session not reset (a turn reads it within
# pipeline/store/turn_state.py's one statement).
LATEST_SESSION = (
    select(SessionRow.id, SessionRow.started_at, SessionRow.last_turn_at, SessionRow.context)
    .where(SessionRow.person_id == bindparam("person_id"), SessionRow.reset_at.is_(None))
    .order_by(SessionRow.id.desc())
    .limit(1)
)


def open_session(
    session: Session | Connection, person_id: int, now: datetime, gap: timedelta
) -> OpenSession | None:
    """The person's session if its last turn is within `gap` of now and it was not reset."""
    conn = session.connection() if isinstance(session, Session) else session
    row = conn.execute(LATEST_SESSION, {"person_id": person_id}).one_or_none()
    if row is None:
        return None
    latest = OpenSession(row.id, as_utc(row.started_at), as_utc(row.last_turn_at), row.context)
    return still_open(latest, now, gap)


def still_open(latest: OpenSession | None, now: datetime, gap: timedelta) -> OpenSession | None:
    """The person's newest session not reset, if its last turn is within `gap` of now."""
    return latest if latest is not None and now - latest.last_turn_at <= gap else None


def start_session(session: Session, person_id: int, now: datetime, context: str) -> int:
    """Record a new session with its context; returns its id."""
    row = SessionRow(
        person_id=person_id, started_at=now, last_turn_at=now, context=context, reset_at=None
    )
    session.add(row)
    session.flush()
    return row.id


def touch_session(session: Session, session_id: int, now: datetime) -> None:
    """Note a turn in the session."""
    session.execute(update(SessionRow).where(SessionRow.id == session_id).values(last_turn_at=now))


def reset_sessions(session: Session, person_id: int, now: datetime) -> int:
    """End the person's open sessions: the next turn starts a new one. Returns how many."""
    result = session.execute(
        update(SessionRow)
        .where(SessionRow.person_id == person_id, SessionRow.reset_at.is_(None))
        .values(reset_at=now)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def working_document(session: Session | Connection, person_id: int) -> str | None:
    """The person's working memory document as stored, or None."""
    return session.execute(
        select(WorkingMemoryRow.document).where(WorkingMemoryRow.person_id == person_id)
    ).scalar_one_or_none()


def put_working_document(session: Session, person_id: int, document: str, now: datetime) -> None:
    """Replace the person's working memory document."""
    row = session.get(WorkingMemoryRow, person_id)
    if row is None:
        session.add(WorkingMemoryRow(person_id=person_id, document=document, updated_at=now))
    else:
        row.document = document
        row.updated_at = now
    session.flush()
