"""Session context: what a new session starts from.

A session is a person's run of turns, on any channel, with no gap longer than
`session_gap_hours`; `converse session reset` ends one early. Its first turn reads the
person's working memory (pipeline/memory/working.py) and keeps it with the session, so every
turn of the session sees the same summary even if a compaction writes a new one meanwhile.
That first turn also carries the profile — the personal memory block, read fresh — and, when
`proactive_greeting` is on, asks the companion to pick up the thread. Later turns carry the
working memory only; the profile reaches project turns through the personal memory block as
before, and a retracted or erased fact is never kept in a session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.memory.block import load_personal_memory
from pipeline.memory.relative_time import relative_time
from pipeline.memory.working import document, readable
from pipeline.settings import Settings
from pipeline.store.sessions import (
    OpenSession,
    put_working_document,
    start_session,
    still_open,
    touch_session,
    working_document,
)

TOUCH_EVERY = timedelta(minutes=1)


@dataclass(frozen=True)
class SessionContext:
    """What the session context part says: the profile and working memory as they were at the
    session's first turn, and whether that turn should greet (settings.proactive_greeting)."""

    profile: str = ""
    working_memory: str = ""
    written: str = ""  # when the working memory was written, in relative time
    greet: bool = False

    def __bool__(self) -> bool:
        return bool(self.profile or self.working_memory or self.greet)


@dataclass(frozen=True)
class SessionState:
    """The session a turn belongs to (None: the turn starts one) and its context."""

    session_id: int | None
    snapshot: str  # JSON kept with the session: the working memory as it was at its start
    context: SessionContext
    last_turn_at: datetime | None = None

    def record(self, session: Session, person_id: int, now: datetime) -> None:
        """In the turn's write transaction: start the session, or note a turn in it (at most
        once a minute: the gap that ends a session is counted in hours)."""
        if self.session_id is None:
            start_session(session, person_id, now, self.snapshot)
        elif self.last_turn_at is None or now - self.last_turn_at >= TOUCH_EVERY:
            touch_session(session, self.session_id, now)


def session_state(
    conn: Session | Connection,
    person_id: int,
    personal_engagement_id: int | None,
    latest: OpenSession | None,
    now: datetime,
    settings: Settings,
) -> SessionState:
    """The session context of a turn at `now`, given the person's newest session not reset
    (read with the turn's state, pipeline/store/turn_state.py)."""
    current = still_open(latest, now, timedelta(hours=settings.session_gap_hours))
    if current is not None:
        return SessionState(
            current.id, current.context, _context(current.context, now), current.last_turn_at
        )
    working = readable(working_document(conn, person_id), now)
    snapshot = json.dumps(
        {
            "working_memory": working.summary if working else "",
            "written": working.updated_at.isoformat() if working else None,
        }
    )
    profile = (
        load_personal_memory(conn, personal_engagement_id, now)
        if personal_engagement_id is not None
        else ""
    )
    context = _context(snapshot, now)
    return SessionState(
        None,
        snapshot,
        SessionContext(
            profile=profile,
            working_memory=context.working_memory,
            written=context.written,
            greet=settings.proactive_greeting,
        ),
    )


def _context(snapshot: str, now: datetime) -> SessionContext:
    try:
        data = json.loads(snapshot)
        summary = str(data.get("working_memory") or "")
        written = data.get("written")
        when = relative_time(as_utc(datetime.fromisoformat(written)), now) if written else ""
    except (ValueError, TypeError, AttributeError):
        return SessionContext()  # an unreadable snapshot is ignored, like bad working memory
    return SessionContext(working_memory=summary, written=when)


def write_working_memory(
    session: Session, person_id: int, summary: str, now: datetime, settings: Settings
) -> str:
    """Store a summary as the person's working memory (what compaction calls); returns the
    document, cut to the budget and expiring after the TTL. Sessions already open keep the
    working memory they started with."""
    text = document(
        summary, now, settings.working_memory_ttl_days, settings.working_memory_budget_tokens
    )
    put_working_document(session, person_id, text, now)
    return text
