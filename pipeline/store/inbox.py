"""The inbox: messages received and not yet answered, oldest first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.store.tables import InboxRow


@dataclass(frozen=True)
class Received:
    """One message waiting for its turn."""

    id: int
    person_id: int
    engagement_id: int | None
    channel: str
    content: str
    received_at: datetime


def receive(
    session: Session,
    *,
    person_id: int,
    engagement_id: int | None,
    channel: str,
    content: str,
    received_at: datetime,
) -> int:
    """Store an arriving message; returns its id."""
    row_id = session.execute(
        insert(InboxRow)
        .values(
            person_id=person_id,
            engagement_id=engagement_id,
            channel=channel,
            content=content,
            received_at=received_at,
        )
        .returning(InboxRow.id)
    ).scalar_one()
    return int(row_id)


def waiting(session: Session, person_id: int | None = None) -> list[Received]:
    """Unanswered messages, oldest first (of one person, or of everyone)."""
    query = select(InboxRow).order_by(InboxRow.id)
    if person_id is not None:
        query = query.where(InboxRow.person_id == person_id)
    return [
        Received(
            id=row.id,
            person_id=row.person_id,
            engagement_id=row.engagement_id,
            channel=row.channel,
            content=row.content,
            received_at=as_utc(row.received_at),
        )
        for row in session.scalars(query)
    ]


def answered(session: Session, ids: Sequence[int]) -> int:
    """Delete answered messages; returns how many were still waiting."""
    if not ids:
        return 0
    result = session.execute(delete(InboxRow).where(InboxRow.id.in_(list(ids))))
    return int(getattr(result, "rowcount", 0) or 0)
