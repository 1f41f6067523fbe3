"""Closing a conversation and reviewing what it will be remembered as.

`close_conversation` moves an active conversation to ready_to_close and runs the compression
pipeline into one draft memory at the suggested destination. The review then edits the draft
(the extracted narrative is kept beside the edit), redirects it, splits it into several
memories for several destinations, or resumes the conversation; `confirm_conversation`
embeds the narratives, applies the state deltas and archives the conversation.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.conversation_models import (
    OPEN_KINDS,
    YOUR_STORY,
    ConversationStatus,
    EntityStatus,
    Extraction,
    Memory,
    MemoryStatus,
    Preview,
    RoutingAnswer,
    StageRecord,
)
from pipeline.conversations.compress import CompressionInput, compress
from pipeline.conversations.lifecycle import move
from pipeline.errors import ConverseError, IllegalTransition, NotFound
from pipeline.lexicon import Lexicon
from pipeline.memory.embeddings import Embedder, embedder_id, to_bytes
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store import conversations as conv_repo
from pipeline.store import memories as repo
from pipeline.store.conversation_rows import MemoryEntityRow, MemoryRow, StateDeltaRow
from pipeline.store.people import get_engagement, get_person_by_id
from pipeline.text import check_text

S = ConversationStatus
MAX_NARRATIVE = 2_000


def _gather(session: Session, person_id: int, conversation_id: int) -> CompressionInput:
    person = get_person_by_id(session, person_id)
    turns = conv_repo.transcript(session, conversation_id)
    if not turns:
        raise IllegalTransition(
            f"conversation {conversation_id} has no turns; there is nothing to remember",
            "talk first, or leave it open",
        )
    shares: list[tuple[str, int]] = []
    without = 0
    for engagement_id, count in conv_repo.turn_projects(session, conversation_id).items():
        if engagement_id is None:
            without += count
        else:
            shares.append((get_engagement(session, engagement_id).name, count))
    return CompressionInput(
        operator_name=person.name,
        turns=tuple((role, content) for _, role, content, _ in turns),
        open_items=tuple(repo.open_items(session, person_id)),
        destinations=tuple(repo.destination_names(session, person_id)),
        turns_by_project=tuple(sorted(shares, key=lambda s: -s[1])),
        turns_without_project=without,
    )


def close_conversation(
    store: Store,
    person_id: int,
    conversation_id: int,
    *,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    lexicon: Lexicon,
    now: datetime | None = None,
) -> Preview:
    """Close (active -> ready_to_close) and extract a draft memory; closing a conversation
    already waiting for review extracts again, replacing its drafts. `lexicon` is the provider
    bundle's, which the narrative's writing check reads."""
    moment = now or utcnow()
    with store.write() as session:
        row = conv_repo.get_row(session, person_id, conversation_id)
        if row.status == S.COMPRESSING.value:  # being confirmed: its drafts are final
            raise IllegalTransition(
                f"conversation {conversation_id} is compressing; it cannot be closed again",
                "wait for it to be archived",
            )
        data = _gather(session, person_id, conversation_id)
        if row.status != S.READY_TO_CLOSE.value:
            move(row, S.READY_TO_CLOSE, moment)
    started = time.perf_counter()
    # model calls: no transaction held open
    extraction = compress(data, library, generator, lexicon=lexicon)
    elapsed_ms = round((time.perf_counter() - started) * 1000)
    with store.write() as session:
        row = conv_repo.get_row(session, person_id, conversation_id)
        if row.status != S.READY_TO_CLOSE.value:
            raise IllegalTransition(
                f"conversation {conversation_id} became {row.status} while it was being closed",
                "close it again if you still mean to",
            )
        repo.drop_drafts(session, person_id, conversation_id)
        _store_draft(session, person_id, conversation_id, extraction, moment)
        conv_repo.set_compression(
            row,
            {
                "stages": [s.model_dump(mode="json") for s in extraction.stages],
                "routing": extraction.routing.model_dump(),
                "duration_ms": elapsed_ms,
                "passes": sum(s.attempts for s in extraction.stages),
            },
        )
    return get_memory_preview(store, person_id, conversation_id)


def _store_draft(
    session: Session,
    person_id: int,
    conversation_id: int,
    extraction: Extraction,
    now: datetime,
) -> None:
    try:
        where = repo.destination(session, person_id, extraction.routing.destination)
    except ConverseError:  # a suggestion naming an archived or vanished project
        where = repo.your_story(session, person_id)
    memory = repo.add_memory(
        session,
        person_id=person_id,
        conversation_id=conversation_id,
        destination_id=where.id,
        narrative=extraction.narrative,
        method=extraction.method,
        now=now,
    )
    for kind, text, data in extraction.entities.items():
        entity = repo.add_entity(
            session,
            memory_id=memory.id,
            person_id=person_id,
            kind=kind,
            text=text,
            data=data,
            now=now,
        )
        if kind in OPEN_KINDS:
            repo.add_delta(
                session, memory_id=memory.id, kind="open", text=text, entity_id=entity.id
            )
    for resolution in extraction.resolved:
        repo.add_delta(
            session,
            memory_id=memory.id,
            kind="resolve",
            text=resolution.reason,
            entity_id=resolution.entity_id,
        )


def get_memory_preview(store: Store, person_id: int, conversation_id: int) -> Preview:
    """The conversation, its memories (drafts until confirmed), the routing suggestion and
    what each stage did."""
    with store.read() as session:
        conversation = conv_repo.get(session, person_id, conversation_id)
        memories = repo.memories_of(session, person_id, conversation_id=conversation_id)
        names = repo.destination_names(session, person_id)
    record = conversation.compression
    suggestion = RoutingAnswer.model_validate(record["routing"]) if "routing" in record else None
    stages = tuple(StageRecord.model_validate(s) for s in record.get("stages", []))
    return Preview(
        conversation=conversation,
        memories=tuple(memories),
        suggestion=suggestion,
        stages=stages,
        destinations=tuple(names),
    )


def _draft(session: Session, person_id: int, memory_id: int) -> MemoryRow:
    row = repo.memory_row(session, person_id, memory_id)
    if row.status != MemoryStatus.DRAFT.value:
        raise IllegalTransition(
            f"memory {memory_id} is confirmed; only a draft can be redirected or split",
            "edit its narrative with `converse conversation review --edit TEXT --person NAME`",
        )
    return row


def _narrative(text: str) -> str:
    # Cleaned as a chat message is (direction overrides, zero-width characters), whoever
    # wrote it: the CLI, an MCP client, Python.
    clean = " ".join(check_text(text, "the narrative").split())
    if not clean:
        raise ConverseError("the narrative is empty", "write what should be remembered")
    if len(clean) > MAX_NARRATIVE:
        raise ConverseError(
            f"the narrative has {len(clean)} characters; at most {MAX_NARRATIVE} are kept",
            "shorten it",
        )
    return clean


def edit_memory(store: Store, person_id: int, memory_id: int, narrative: str) -> Memory:
    """Replace a memory's narrative (draft or confirmed); the extracted one is kept."""
    text = _narrative(narrative)
    with store.write() as session:
        row = repo.memory_row(session, person_id, memory_id)
        row.narrative = text
        session.flush()
        if row.status == MemoryStatus.CONFIRMED.value:
            _embed_later(session, row.id)
        return repo.memory(session, row)


def _embed_later(session: Session, memory_id: int) -> None:
    # An edited confirmed memory's vector no longer matches its text: drop it; the next
    # confirmation or backfill with an embedder computes it again.
    found = repo.embedding_of(session, memory_id)
    if found is not None:
        session.delete(found)


def redirect_memory(store: Store, person_id: int, memory_id: int, destination: str) -> Memory:
    """Send a draft to another destination: Your Story or one of the person's projects."""
    with store.write() as session:
        row = _draft(session, person_id, memory_id)
        row.destination_id = repo.destination(session, person_id, destination).id
        session.flush()
        return repo.memory(session, row)


class SplitPart(BaseModel):
    """One memory of a split: where it goes, what it says, and which of the draft's entities
    go with it (the first part keeps those no part names)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    destination: str = Field(min_length=1)
    narrative: str = Field(min_length=1)
    entity_ids: tuple[int, ...] = ()


def split_memory(
    store: Store, person_id: int, memory_id: int, parts: Sequence[SplitPart]
) -> list[Memory]:
    """Replace a draft by several drafts, one per part, each linking the same conversation."""
    if len(parts) < 2:
        raise ConverseError("a split needs at least two parts", "give two or more destinations")
    texts = [_narrative(p.narrative) for p in parts]
    with store.write() as session:
        row = _draft(session, person_id, memory_id)
        owned = set(
            session.execute(
                select(MemoryEntityRow.id).where(MemoryEntityRow.memory_id == row.id)
            ).scalars()
        )
        named = [i for p in parts for i in p.entity_ids]
        stray = sorted(set(named) - owned)
        if stray:
            raise NotFound(
                f"entities {stray} are not in memory {memory_id}",
                "use the entity ids the preview shows",
            )
        if len(named) != len(set(named)):
            raise ConverseError("an entity is named in two parts", "give each entity one part")
        targets = [repo.destination(session, person_id, p.destination) for p in parts]
        out = [row]
        row.destination_id, row.narrative = targets[0].id, texts[0]
        for target, text in zip(targets[1:], texts[1:], strict=True):
            out.append(
                repo.add_memory(
                    session,
                    person_id=person_id,
                    conversation_id=row.conversation_id,
                    destination_id=target.id,
                    narrative=text,
                    method=row.method,
                    now=row.created_at,
                )
            )
        for part, memory in zip(parts, out, strict=True):
            for entity_id in part.entity_ids:
                session.get_one(MemoryEntityRow, entity_id).memory_id = memory.id
                for delta in session.execute(
                    select(StateDeltaRow).where(
                        StateDeltaRow.memory_id == row.id, StateDeltaRow.entity_id == entity_id
                    )
                ).scalars():
                    delta.memory_id = memory.id
        session.flush()
        return [repo.memory(session, m) for m in out]


def confirm_conversation(
    store: Store,
    person_id: int,
    conversation_id: int,
    *,
    embedder: Embedder | None,
    now: datetime | None = None,
) -> list[Memory]:
    """Keep the drafts: ready_to_close -> compressing (narratives embedded, state deltas
    applied) -> archived. Without an embedder the memories are kept unembedded."""
    moment = now or utcnow()
    with store.write() as session:
        row = conv_repo.get_row(session, person_id, conversation_id)
        drafts = repo.memories_of(
            session, person_id, conversation_id=conversation_id, status=MemoryStatus.DRAFT
        )
        if row.status == S.READY_TO_CLOSE.value and not drafts:
            raise IllegalTransition(
                f"conversation {conversation_id} has no draft memory to confirm",
                "close it again to extract one",
            )
        move(row, S.COMPRESSING, moment)
    try:
        vectors = embedder.embed([m.narrative for m in drafts]) if embedder else None
        with store.write() as session:
            for index, draft in enumerate(drafts):
                memory = session.get_one(MemoryRow, draft.id)
                memory.status = MemoryStatus.CONFIRMED.value
                memory.confirmed_at = moment
                if vectors is not None and embedder is not None:
                    repo.put_embedding(
                        session,
                        memory_id=draft.id,
                        model=embedder.model_name,
                        embedder=embedder_id(embedder),
                        dim=embedder.dim,
                        content_sha256=hashlib.sha256(draft.narrative.encode()).hexdigest(),
                        vector=to_bytes(vectors[index]),
                        now=moment,
                    )
                _apply(session, person_id, draft.id, moment)
            move(conv_repo.get_row(session, person_id, conversation_id), S.ARCHIVED, moment)
    except Exception:
        with store.write() as session:  # nothing is lost: back to review
            row = conv_repo.get_row(session, person_id, conversation_id)
            if row.status == S.COMPRESSING.value:
                move(row, S.READY_TO_CLOSE, moment)
        raise
    with store.read() as session:
        return repo.memories_of(session, person_id, conversation_id=conversation_id)


def _apply(session: Session, person_id: int, memory_id: int, now: datetime) -> None:
    for delta in session.execute(
        select(StateDeltaRow).where(StateDeltaRow.memory_id == memory_id)
    ).scalars():
        if delta.kind == "resolve" and delta.entity_id is not None:
            entity = session.get(MemoryEntityRow, delta.entity_id)
            if entity is None or entity.person_id != person_id:
                continue  # never touch another person's state
            if entity.status == EntityStatus.ACTIVE.value:
                entity.status = EntityStatus.RESOLVED.value
                entity.resolved_by = memory_id
                entity.resolved_at = now
        delta.applied = True
        delta.applied_at = now


__all__ = [
    "YOUR_STORY",
    "SplitPart",
    "close_conversation",
    "confirm_conversation",
    "edit_memory",
    "get_memory_preview",
    "redirect_memory",
    "split_memory",
]
