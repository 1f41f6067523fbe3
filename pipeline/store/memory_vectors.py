"""Confirmed conversation memories with their narrative vectors, read in one query for search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, select, true
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.conversation_models import OPEN_KINDS, YOUR_STORY, MemoryStatus
from pipeline.errors import NotFound
from pipeline.store.conversation_rows import (
    DestinationRow,
    MemoryEmbeddingRow,
    MemoryEntityRow,
    MemoryRow,
)
from pipeline.store.tables import EngagementRow


@dataclass(frozen=True)
class SearchableMemory:
    """A confirmed memory as search needs it: text to match and its stored vector, if any."""

    memory_id: int
    destination_id: int
    narrative: str
    entity_text: str
    created_at: datetime
    vector: bytes | None
    dim: int | None
    content_sha256: str | None


def searchable(session: Session, person_id: int, model: str) -> list[SearchableMemory]:
    """The person's confirmed memories, oldest first, with their vectors under `model`."""
    rows = session.execute(
        select(
            MemoryRow.id,
            MemoryRow.destination_id,
            MemoryRow.narrative,
            MemoryRow.created_at,
            MemoryEmbeddingRow.vector,
            MemoryEmbeddingRow.dim,
            MemoryEmbeddingRow.content_sha256,
        )
        .outerjoin(
            MemoryEmbeddingRow,
            and_(MemoryEmbeddingRow.memory_id == MemoryRow.id, MemoryEmbeddingRow.model == model),
        )
        .where(MemoryRow.person_id == person_id, MemoryRow.status == MemoryStatus.CONFIRMED.value)
        .order_by(MemoryRow.id)
    ).all()
    texts = _entity_texts(session, person_id)
    return [
        SearchableMemory(
            memory_id=r.id,
            destination_id=r.destination_id,
            narrative=r.narrative,
            entity_text=texts.get(r.id, ""),
            created_at=as_utc(r.created_at),
            vector=r.vector,
            dim=r.dim,
            content_sha256=r.content_sha256,
        )
        for r in rows
    ]


def _entity_texts(session: Session, person_id: int) -> dict[int, str]:
    found: dict[int, list[str]] = {}
    for memory_id, text in session.execute(
        select(MemoryEntityRow.memory_id, MemoryEntityRow.text)
        .where(MemoryEntityRow.person_id == person_id)
        .order_by(MemoryEntityRow.id)
    ):
        found.setdefault(memory_id, []).append(text)
    return {k: " ".join(v) for k, v in found.items()}


def fingerprint(session: Session, person_id: int, model: str) -> tuple[object, ...]:
    """Changes whenever the searchable memories do: one confirmed (confirmed_at moves; the
    deltas it applies resolve or open threads with it), or one's vector stored or dropped
    (an edited narrative drops its vector). One statement, no scan of the narratives."""
    confirmed = (
        select(
            func.count(MemoryRow.id).label("n"),
            func.max(MemoryRow.id).label("top"),
            func.max(MemoryRow.confirmed_at).label("at"),
        )
        .where(MemoryRow.person_id == person_id, MemoryRow.status == MemoryStatus.CONFIRMED.value)
        .subquery()
    )
    vectors = (
        select(
            func.count(MemoryEmbeddingRow.memory_id).label("n"),
            func.max(MemoryEmbeddingRow.created_at).label("at"),
        )
        .join(MemoryRow, MemoryRow.id == MemoryEmbeddingRow.memory_id)
        .where(MemoryRow.person_id == person_id, MemoryEmbeddingRow.model == model)
        .subquery()
    )
    # Two one-row aggregates side by side: joined on true, not a cartesian product by mistake.
    row = session.execute(
        select(
            confirmed.c.n, confirmed.c.top, confirmed.c.at, vectors.c.n, vectors.c.at
        ).select_from(confirmed.join(vectors, true()))
    ).one()
    return tuple(row)


@dataclass(frozen=True)
class OpenThread:
    """An active entity of an open kind in a confirmed memory."""

    entity_id: int
    memory_id: int
    kind: str
    text: str


def open_threads(session: Session, person_id: int) -> list[OpenThread]:
    """The person's open threads with the memory holding each, oldest first."""
    rows = session.execute(
        select(
            MemoryEntityRow.id,
            MemoryEntityRow.memory_id,
            MemoryEntityRow.kind,
            MemoryEntityRow.text,
        )
        .join(MemoryRow, MemoryRow.id == MemoryEntityRow.memory_id)
        .where(
            MemoryEntityRow.person_id == person_id,
            MemoryEntityRow.status == "active",
            MemoryEntityRow.kind.in_(OPEN_KINDS),
            MemoryRow.status == MemoryStatus.CONFIRMED.value,
        )
        .order_by(MemoryEntityRow.id)
    )
    return [OpenThread(r.id, r.memory_id, r.kind, r.text) for r in rows]


def destination_ids(session: Session, memory_ids: Sequence[int]) -> dict[int, int]:
    """Each memory's destination id."""
    if not memory_ids:
        return {}
    rows = session.execute(
        select(MemoryRow.id, MemoryRow.destination_id).where(MemoryRow.id.in_(list(memory_ids)))
    )
    return {r.id: r.destination_id for r in rows}


def destination_id_named(session: Session, person_id: int, name: str) -> int | None:
    """The id of the destination called `name` (None when it holds nothing yet), read-only;
    NotFound when it is neither Your Story nor one of the person's projects."""
    if name.strip().casefold() == YOUR_STORY.casefold():
        return session.scalar(
            select(DestinationRow.id).where(
                DestinationRow.person_id == person_id, DestinationRow.kind == "your_story"
            )
        )
    project = session.scalar(
        select(EngagementRow.id).where(
            EngagementRow.owner_person_id == person_id,
            EngagementRow.visibility == "project",
            EngagementRow.name == name.strip(),
        )
    )
    if project is None:
        raise NotFound(
            f"no destination {name!r}: neither {YOUR_STORY} nor one of this person's projects",
            "list them with `converse project list --person NAME`",
        )
    return session.scalar(
        select(DestinationRow.id).where(
            DestinationRow.person_id == person_id, DestinationRow.engagement_id == project
        )
    )
