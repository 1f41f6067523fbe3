"""Memories, their entities, state deltas and embeddings (migration 0011); their
destinations are in pipeline/store/destinations.py, whose names this module exports too."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.conversation_models import (
    OPEN_KINDS,
    EntityStatus,
    Memory,
    MemoryEntity,
    MemoryStatus,
    OpenItem,
    StateDelta,
)
from pipeline.errors import NotFound
from pipeline.store.conversation_rows import (
    MemoryEmbeddingRow,
    MemoryEntityRow,
    MemoryRow,
    StateDeltaRow,
)
from pipeline.store.destinations import (
    _destination,
    archive_destination,
    delete_destination,
    destination,
    destination_names,
    your_story,
)

# --- memories -------------------------------------------------------------------------------


def add_memory(
    session: Session,
    *,
    person_id: int,
    conversation_id: int,
    destination_id: int,
    narrative: str,
    method: str,
    now: datetime,
) -> MemoryRow:
    """A draft memory."""
    row = MemoryRow(
        person_id=person_id,
        conversation_id=conversation_id,
        destination_id=destination_id,
        status=MemoryStatus.DRAFT.value,
        narrative=narrative,
        original_narrative=narrative,
        method=method,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row


def add_entity(
    session: Session,
    *,
    memory_id: int,
    person_id: int,
    kind: str,
    text: str,
    data: dict[str, Any],
    now: datetime,
) -> MemoryEntityRow:
    """An entity of a memory; active until something resolves it."""
    row = MemoryEntityRow(
        memory_id=memory_id,
        person_id=person_id,
        kind=kind,
        text=text,
        data=data,
        status=EntityStatus.ACTIVE.value,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row


def add_delta(
    session: Session, *, memory_id: int, kind: str, text: str, entity_id: int | None
) -> StateDeltaRow:
    """A state delta of a memory, not applied yet."""
    row = StateDeltaRow(
        memory_id=memory_id, kind=kind, text=text, entity_id=entity_id, applied=False
    )
    session.add(row)
    session.flush()
    return row


def memory_row(session: Session, person_id: int, memory_id: int) -> MemoryRow:
    """A memory of this person; NotFound otherwise."""
    row = session.get(MemoryRow, memory_id)
    if row is None or row.person_id != person_id:
        raise NotFound(
            f"no memory {memory_id} for this person",
            "see the memories with `converse conversation show --person NAME`",
        )
    return row


def memory(session: Session, row: MemoryRow) -> Memory:
    """A memory row with its destination, entities and deltas."""
    entities = session.execute(
        select(MemoryEntityRow)
        .where(MemoryEntityRow.memory_id == row.id)
        .order_by(MemoryEntityRow.id)
    ).scalars()
    deltas = session.execute(
        select(StateDeltaRow).where(StateDeltaRow.memory_id == row.id).order_by(StateDeltaRow.id)
    ).scalars()
    return Memory(
        id=row.id,
        person_id=row.person_id,
        conversation_id=row.conversation_id,
        destination=_destination(session, row.destination_id),
        status=MemoryStatus(row.status),
        narrative=row.narrative,
        original_narrative=row.original_narrative,
        method=row.method,
        created_at=as_utc(row.created_at),
        confirmed_at=as_utc(row.confirmed_at) if row.confirmed_at else None,
        entities=tuple(_entity(e) for e in entities),
        deltas=tuple(
            StateDelta(
                id=d.id,
                memory_id=d.memory_id,
                kind=d.kind,
                text=d.text,
                entity_id=d.entity_id,
                applied=bool(d.applied),
            )
            for d in deltas
        ),
    )


def _entity(row: MemoryEntityRow) -> MemoryEntity:
    return MemoryEntity(
        id=row.id,
        memory_id=row.memory_id,
        kind=row.kind,
        text=row.text,
        data=row.data or {},
        status=EntityStatus(row.status),
        resolved_by=row.resolved_by,
        created_at=as_utc(row.created_at),
    )


def memories_of(
    session: Session,
    person_id: int,
    *,
    conversation_id: int | None = None,
    status: MemoryStatus | None = None,
) -> list[Memory]:
    """The person's memories (of one conversation, of one status), oldest first."""
    query = select(MemoryRow).where(MemoryRow.person_id == person_id)
    if conversation_id is not None:
        query = query.where(MemoryRow.conversation_id == conversation_id)
    if status is not None:
        query = query.where(MemoryRow.status == status.value)
    return [memory(session, row) for row in session.execute(query.order_by(MemoryRow.id)).scalars()]


def drop_drafts(session: Session, person_id: int, conversation_id: int) -> int:
    """Delete a conversation's draft memories (their entities and deltas go with them)."""
    ids = list(
        session.execute(
            select(MemoryRow.id).where(
                MemoryRow.person_id == person_id,
                MemoryRow.conversation_id == conversation_id,
                MemoryRow.status == MemoryStatus.DRAFT.value,
            )
        ).scalars()
    )
    if ids:
        # Explicit child deletes: SQLite's cascade needs foreign keys on, PostgreSQL's is set.
        session.execute(delete(StateDeltaRow).where(StateDeltaRow.memory_id.in_(ids)))
        session.execute(delete(MemoryEntityRow).where(MemoryEntityRow.memory_id.in_(ids)))
        session.execute(delete(MemoryRow).where(MemoryRow.id.in_(ids)))
    return len(ids)


def open_items(session: Session, person_id: int) -> list[OpenItem]:
    """Active entities of open kinds in the person's confirmed memories: the open state."""
    rows = session.execute(
        select(MemoryEntityRow.id, MemoryEntityRow.kind, MemoryEntityRow.text)
        .join(MemoryRow, MemoryRow.id == MemoryEntityRow.memory_id)
        .where(
            MemoryEntityRow.person_id == person_id,
            MemoryEntityRow.status == EntityStatus.ACTIVE.value,
            MemoryEntityRow.kind.in_(OPEN_KINDS),
            MemoryRow.status == MemoryStatus.CONFIRMED.value,
        )
        .order_by(MemoryEntityRow.id)
    ).all()
    return [OpenItem(id=r.id, kind=r.kind, text=r.text) for r in rows]


def confirmed_entities(
    session: Session, person_id: int, kinds: Iterable[str], since: datetime | None = None
) -> list[MemoryEntity]:
    """Entities of the person's confirmed memories of these kinds (created since `since`)."""
    query = (
        select(MemoryEntityRow)
        .join(MemoryRow, MemoryRow.id == MemoryEntityRow.memory_id)
        .where(
            MemoryEntityRow.person_id == person_id,
            MemoryEntityRow.kind.in_(list(kinds)),
            MemoryRow.status == MemoryStatus.CONFIRMED.value,
        )
    )
    if since is not None:
        query = query.where(MemoryEntityRow.created_at >= since)
    return [_entity(r) for r in session.execute(query.order_by(MemoryEntityRow.id)).scalars()]


def put_embedding(
    session: Session,
    *,
    memory_id: int,
    model: str,
    embedder: str,
    dim: int,
    content_sha256: str,
    vector: bytes,
    now: datetime,
) -> None:
    """Store (or replace) a memory's narrative embedding under one model."""
    row = session.get(MemoryEmbeddingRow, (memory_id, model))
    if row is None:
        session.add(
            MemoryEmbeddingRow(
                memory_id=memory_id,
                model=model,
                embedder=embedder,
                dim=dim,
                content_sha256=content_sha256,
                vector=vector,
                created_at=now,
            )
        )
    else:
        row.embedder, row.dim, row.content_sha256, row.vector = (
            embedder,
            dim,
            content_sha256,
            vector,
        )
        row.created_at = now
    session.flush()


def embedding_of(session: Session, memory_id: int) -> MemoryEmbeddingRow | None:
    """A memory's stored embedding, if any."""
    return (
        session.execute(select(MemoryEmbeddingRow).where(MemoryEmbeddingRow.memory_id == memory_id))
        .scalars()
        .first()
    )


def erase_from_memories(session: Session, turn_ids: Iterable[int], marker: str) -> int:
    """Blank what was extracted from conversations holding these (erased) turns: the
    memories' narratives (extracted and edited), their entities and vectors, and the routing
    reasoning kept with the conversation. A narrative paraphrases, so which sentence restates
    the erased text cannot be told: the whole memory is blanked. Returns how many."""
    from pipeline.store.conversation_rows import ConversationMessageRow, ConversationRow

    ids = list(turn_ids)
    if not ids:
        return 0
    conversations = sorted(
        set(
            session.execute(
                select(ConversationMessageRow.conversation_id).where(
                    ConversationMessageRow.turn_id.in_(ids)
                )
            ).scalars()
        )
    )
    if not conversations:
        return 0
    memory_ids = list(
        session.execute(
            select(MemoryRow.id).where(MemoryRow.conversation_id.in_(conversations))
        ).scalars()
    )
    for row in session.execute(
        select(ConversationRow).where(ConversationRow.id.in_(conversations))
    ).scalars():
        record = dict(row.compression or {})
        if "routing" in record:
            record["routing"] = {**record["routing"], "reasoning": marker}
            row.compression = record
    if memory_ids:
        session.execute(delete(StateDeltaRow).where(StateDeltaRow.memory_id.in_(memory_ids)))
        session.execute(delete(MemoryEntityRow).where(MemoryEntityRow.memory_id.in_(memory_ids)))
        session.execute(
            delete(MemoryEmbeddingRow).where(MemoryEmbeddingRow.memory_id.in_(memory_ids))
        )
        for memory in session.execute(
            select(MemoryRow).where(MemoryRow.id.in_(memory_ids))
        ).scalars():
            memory.narrative = marker
            memory.original_narrative = marker
    session.flush()
    return len(memory_ids)


__all__ = [
    "add_delta",
    "add_entity",
    "add_memory",
    "archive_destination",
    "confirmed_entities",
    "delete_destination",
    "destination",
    "destination_names",
    "drop_drafts",
    "embedding_of",
    "erase_from_memories",
    "memories_of",
    "memory",
    "memory_row",
    "open_items",
    "put_embedding",
    "your_story",
]
