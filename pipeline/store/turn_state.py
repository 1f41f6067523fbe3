"""The single-row state a turn reads before it classifies, in one round trip: the newest
compaction of its conversation, the person's newest session, the conversation's checkpoint and
the memory revisions of its personal memory and project.

Four lookups as one statement (each a LEFT JOIN on a one-row select, so a missing row reads
as NULLs): every turn runs it, and on SQLite the statement's execution costs several times the
lookups themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, bindparam, literal_column, select, true
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, aliased

from pipeline.clock import as_utc
from pipeline.store.checkpoints import STATE
from pipeline.store.compactions import LATEST_IN, LATEST_OUTSIDE, Compaction
from pipeline.store.events import conversation_key
from pipeline.store.hot_sql import HotStatement
from pipeline.store.sessions import LATEST_SESSION, OpenSession
from pipeline.store.tables import MemoryRevisionRow


@dataclass(frozen=True)
class TurnState:
    """What one statement read for a turn."""

    compaction: Compaction | None
    latest_session: OpenSession | None  # the newest session not reset, however long ago
    checkpoint: dict[str, Any] | None  # the conversation's stored state, None before its first
    revisions: tuple[int, int]  # personal memory's and the project's (0: none yet)


def _statement(latest_compaction: Select[int, str]) -> Select[Any]:
    compaction = latest_compaction.subquery("compaction")
    session = LATEST_SESSION.subquery("session")
    checkpoint = STATE.subquery("checkpoint")
    personal = aliased(MemoryRevisionRow, name="personal_revision")
    project = aliased(MemoryRevisionRow, name="project_revision")
    one = select(literal_column("1").label("one")).subquery("one")
    return select(
        compaction.c.upto_turn_id,
        compaction.c.summary,
        session.c.id,
        session.c.started_at,
        session.c.last_turn_at,
        session.c.context,
        checkpoint.c.state,
        personal.revision,
        project.revision,
    ).select_from(
        one.outerjoin(compaction, true())
        .outerjoin(session, true())
        .outerjoin(checkpoint, true())
        .outerjoin(personal, personal.engagement_id == bindparam("personal_id"))
        .outerjoin(project, project.engagement_id == bindparam("project_id"))
    )


# Built once: constructing and cache-keying the select costs more than running it.
_OUTSIDE = HotStatement(_statement(LATEST_OUTSIDE))
_IN = HotStatement(_statement(LATEST_IN))


def read_turn_state(
    session: Session | Connection,
    person_id: int,
    engagement_id: int | None,
    personal_id: int | None,
) -> TurnState:
    """The turn's single-row state in its project (or outside any)."""
    params: dict[str, Any] = {
        "person_id": person_id,
        "conversation": conversation_key(engagement_id),
        # an id no engagement has reads as no revision (0)
        "personal_id": personal_id if personal_id is not None else -1,
        "project_id": engagement_id if engagement_id is not None else -1,
    }
    if engagement_id is None:
        (row,) = _OUTSIDE.rows(session, params)
    else:
        (row,) = _IN.rows(session, {**params, "engagement_id": engagement_id})
    upto, summary, sid, started, last, context, state, personal, project = row
    return TurnState(
        compaction=Compaction(upto, summary) if upto is not None else None,
        latest_session=(
            OpenSession(sid, as_utc(started), as_utc(last), context) if sid is not None else None
        ),
        checkpoint=dict(state) if state is not None else None,
        revisions=(int(personal or 0), int(project or 0)),
    )
