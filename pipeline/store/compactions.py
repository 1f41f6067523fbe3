"""Compaction summaries of a conversation's older turns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Select, bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.store.tables import CompactionRow


@dataclass(frozen=True)
class Compaction:
    """The newest summary of a conversation, and the last turn it stands for."""

    upto_turn_id: int
    summary: str


def _latest(where: ColumnElement[bool]) -> Select[int, str]:
    return (
        select(CompactionRow.upto_turn_id, CompactionRow.summary)
        .where(CompactionRow.person_id == bindparam("person_id"), where)
        .order_by(CompactionRow.id.desc())
        .limit(1)
    )


# Built once: every turn asks (constructing a select costs more than running it on SQLite);
# the turn reads them within its own one-statement read (pipeline/store/turn_state.py).
LATEST_OUTSIDE = _latest(CompactionRow.engagement_id.is_(None))
LATEST_IN = _latest(CompactionRow.engagement_id == bindparam("engagement_id"))


def latest_compaction(
    session: Session | Connection, person_id: int, engagement_id: int | None
) -> Compaction | None:
    """The newest compaction of this person's conversation in this project (or outside any)."""
    conn = session.connection() if isinstance(session, Session) else session
    if engagement_id is None:
        row = conn.execute(LATEST_OUTSIDE, {"person_id": person_id}).one_or_none()
    else:
        params = {"person_id": person_id, "engagement_id": engagement_id}
        row = conn.execute(LATEST_IN, params).one_or_none()
    return Compaction(row.upto_turn_id, row.summary) if row is not None else None


def add_compaction(
    session: Session,
    *,
    person_id: int,
    engagement_id: int | None,
    upto_turn_id: int,
    summary: str,
    method: str,
    now: datetime,
) -> None:
    """Record a summary standing for the turns up to `upto_turn_id`."""
    session.add(
        CompactionRow(
            person_id=person_id,
            engagement_id=engagement_id,
            upto_turn_id=upto_turn_id,
            summary=summary,
            method=method,
            created_at=now,
        )
    )
    session.flush()
