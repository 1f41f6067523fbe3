"""The inbox: messages received and not yet answered, oldest first, each leased to the turn
queue that answers it (pipeline/store/leases.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.store.leases import LEASE_TIME, holder_alive
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
    lessee: str | None = None,
) -> int:
    """Store an arriving message, leased to `lessee` (the queue that will answer it) when
    given; returns its id."""
    row_id = session.execute(
        insert(InboxRow)
        .values(
            person_id=person_id,
            engagement_id=engagement_id,
            channel=channel,
            content=content,
            received_at=received_at,
            lease_owner=lessee,
            lease_until=received_at + LEASE_TIME if lessee else None,
        )
        .returning(InboxRow.id)
    ).scalar_one()
    return int(row_id)


def _rows(session: Session, person_id: int | None) -> list[InboxRow]:
    query = select(InboxRow).order_by(InboxRow.id)
    if person_id is not None:
        query = query.where(InboxRow.person_id == person_id)
    return list(session.scalars(query))


def _received(row: InboxRow) -> Received:
    return Received(
        id=row.id,
        person_id=row.person_id,
        engagement_id=row.engagement_id,
        channel=row.channel,
        content=row.content,
        received_at=as_utc(row.received_at),
    )


def waiting(session: Session, person_id: int | None = None) -> list[Received]:
    """Unanswered messages, oldest first (of one person, or of everyone), whoever holds them."""
    return [_received(row) for row in _rows(session, person_id)]


def _free(row: InboxRow, lessee: str) -> bool:
    """Whether `lessee` may answer the message: its own, nobody's, or its holder's is gone."""
    if row.lease_owner is None or row.lease_owner == lessee:
        return True
    alive = holder_alive(row.lease_owner)
    if alive is not None:
        return not alive
    return row.lease_until is None or as_utc(row.lease_until) < utcnow()


def answerable(session: Session, lessee: str, person_id: int | None = None) -> list[Received]:
    """The waiting messages `lessee` may answer, oldest first: its own, and those nobody
    holds (left by a process that ended, or released by a queue that closed)."""
    return [_received(row) for row in _rows(session, person_id) if _free(row, lessee)]


def claim(session: Session, lessee: str, person_id: int) -> list[Received]:
    """Lease to `lessee` every message of the person it may answer, renewing its own lease,
    and return them, oldest first. A message another queue takes over at the same moment is
    left to that queue (the lease is only written where it still is what was read)."""
    until = utcnow() + LEASE_TIME
    held: list[Received] = []
    for row in _rows(session, person_id):
        if not _free(row, lessee):
            continue
        still = (
            InboxRow.lease_owner.is_(None)
            if row.lease_owner is None
            else InboxRow.lease_owner == row.lease_owner
        )
        result = session.execute(
            update(InboxRow)
            .where(InboxRow.id == row.id, still)
            .values(lease_owner=lessee, lease_until=until)
            .execution_options(synchronize_session=False)
        )
        if getattr(result, "rowcount", 0):
            held.append(_received(row))
    return held


def release(session: Session, lessee: str) -> int:
    """Give up every lease of `lessee` (its queue closes): another queue may answer them."""
    result = session.execute(
        update(InboxRow)
        .where(InboxRow.lease_owner == lessee)
        .values(lease_owner=None, lease_until=None)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def answered(session: Session, ids: Sequence[int]) -> int:
    """Delete answered messages; returns how many were still waiting."""
    if not ids:
        return 0
    result = session.execute(delete(InboxRow).where(InboxRow.id.in_(list(ids))))
    return int(getattr(result, "rowcount", 0) or 0)
