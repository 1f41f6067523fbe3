"""What each MCP tool does, as plain functions of one person's data (pipeline/mcp/server.py
registers them). Every tool is bound to the person the server was started for: no tool
takes a person, so one person's memories never reach another person's client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from pipeline.conversation_models import (
    OPEN_KINDS,
    YOUR_STORY,
    Conversation,
    Memory,
    MemoryEntity,
    MemoryStatus,
    Preview,
)
from pipeline.conversations import (
    close_conversation,
    confirm_conversation,
    edit_memory,
    get_active_conversation,
    get_conversation_archive,
    get_memory_preview,
    redirect_memory,
    resume_conversation,
)
from pipeline.conversations.memory_search import MemoryHit, search_memories
from pipeline.conversations.recall import Explanation, explain_classification
from pipeline.domain import Frozen
from pipeline.errors import ConverseError, InvalidMessage
from pipeline.lexicon import Lexicon
from pipeline.memory.embeddings import Embedder
from pipeline.memory.query import MemoryQuery, QueryResult, memory_query
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store.memories import confirmed_entities, memories_of, memory_row
from pipeline.store.memory_vectors import destination_id_named
from pipeline.text import check_text

MAX_LIMIT = 100


@dataclass(frozen=True)
class Person:
    """The one person a server answers for, and what its tools need."""

    store: Store
    person_id: int
    library: PromptLibrary
    generator: StructuredGenerator | None
    embedder: Embedder | None
    name: str
    lexicon: Lexicon  # the provider bundle's (pipeline/lexicon.py): closure's writing check


class ArchiveTurn(Frozen):
    """One turn of an archived conversation."""

    turn_id: int
    role: str
    content: str
    at: str


class ReasoningContext(Frozen):
    """Memories and open threads relevant to a request, and the text a prompt would carry."""

    query: str
    context_type: str
    memories: tuple[MemoryHit, ...]
    open_threads: tuple[MemoryEntity, ...]
    text: str


def _embedder(me: Person) -> Embedder:
    if me.embedder is None:
        raise ConverseError(
            "this server's provider has no embedder, so memories cannot be searched",
            "start it with --provider local (the embedded model)",
        )
    return me.embedder


def _limit(value: int, name: str = "limit") -> int:
    if not 1 <= value <= MAX_LIMIT:
        raise ConverseError(f"{name} is {value}; it must be 1 to {MAX_LIMIT}", "ask for fewer")
    return value


def _checked(**arguments: str | None) -> None:
    """Text arguments refused as the CLI refuses them (NUL, invalid UTF-8), by their names."""
    for name, value in arguments.items():
        if value is not None:
            check_text(value, f"the {name}")


def active(me: Person) -> Conversation | None:
    """The active conversation, if any."""
    return get_active_conversation(me.store, me.person_id)


def close(me: Person, conversation_id: int) -> Preview:
    """Close the conversation and extract its draft memory with the server's model."""
    return close_conversation(
        me.store,
        me.person_id,
        conversation_id,
        library=me.library,
        generator=me.generator,
        lexicon=me.lexicon,
    )


def preview(me: Person, conversation_id: int) -> Preview:
    """The conversation's draft memories and how they were extracted."""
    return get_memory_preview(me.store, me.person_id, conversation_id)


def confirm(
    me: Person, memory_id: int, destination: str | None, edited_narrative: str | None
) -> list[Memory]:
    """Redirect and edit the draft when asked, then keep the conversation's drafts."""
    _checked(destination=destination, narrative=edited_narrative)
    with me.store.read() as session:
        conversation_id = memory_row(session, me.person_id, memory_id).conversation_id
    if destination:
        redirect_memory(me.store, me.person_id, memory_id, destination)
    if edited_narrative is not None:
        edit_memory(me.store, me.person_id, memory_id, edited_narrative)
    return confirm_conversation(me.store, me.person_id, conversation_id, embedder=me.embedder)


def resume(me: Person, conversation_id: int) -> Conversation:
    """Cancel closing; the drafts are dropped."""
    return resume_conversation(me.store, me.person_id, conversation_id)


def search(
    me: Person, query: str, destination: str | None, your_story_only: bool, limit: int
) -> list[MemoryHit]:
    """Confirmed memories matching the query (of Your Story or one project when asked)."""
    where = YOUR_STORY if your_story_only else destination
    _checked(query=query, destination=destination)
    return search_memories(
        me.store, me.person_id, query, _embedder(me), destination=where, limit=_limit(limit)
    )


def query(me: Person, request: dict[str, Any]) -> QueryResult:
    """memory.query over the person's facts and notes, with the request's filters; the named
    reader's category allowlist is enforced by the store query (an error, never narrowed)."""
    try:
        asked = MemoryQuery(person=me.name, **request)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the request"
        raise InvalidMessage(
            f"{where}: {first['msg']}", "fix that argument (docs/memory.md, 'memory.query')"
        ) from exc
    with me.store.write() as session:
        return memory_query(session, asked, _embedder(me) if asked.query.strip() else None)


def open_threads(
    me: Person, entity_type: str | None, destination: str | None
) -> list[MemoryEntity]:
    """Active entities of the open kinds (tasks, waiting-ons, open questions)."""
    if entity_type is not None and entity_type not in OPEN_KINDS:
        raise ConverseError(
            f"{entity_type!r} is not an open kind", f"use one of: {', '.join(OPEN_KINDS)}"
        )
    _checked(destination=destination)
    kinds = [entity_type] if entity_type else list(OPEN_KINDS)
    with me.store.read() as session:
        wanted = destination_id_named(session, me.person_id, destination) if destination else None
        if destination and wanted is None:
            return []
        found = [
            e for e in confirmed_entities(session, me.person_id, kinds) if e.status == "active"
        ]
        if wanted is None:
            return found
        return [
            e
            for e in found
            if memory_row(session, me.person_id, e.memory_id).destination_id == wanted
        ]


def your_story(me: Person, limit: int, offset: int) -> list[Memory]:
    """Confirmed Your Story memories, newest first."""
    if offset < 0:
        raise ConverseError(f"offset is {offset}; it must be 0 or more", "start at 0")
    with me.store.read() as session:
        kept = memories_of(session, me.person_id, status=MemoryStatus.CONFIRMED)
    mine = [m for m in reversed(kept) if m.destination.kind == "your_story"]
    return mine[offset : offset + _limit(limit)]


def archive(me: Person, conversation_id: int) -> list[ArchiveTurn]:
    """The conversation's turns, oldest first."""
    turns = get_conversation_archive(me.store, me.person_id, conversation_id)
    return [
        ArchiveTurn(turn_id=t, role=role, content=content, at=at.isoformat())
        for t, role, content, at in turns
    ]


def edit(me: Person, memory_id: int, narrative: str) -> Memory:
    """Replace a memory's narrative; the extracted one is kept."""
    _checked(narrative=narrative)
    return edit_memory(me.store, me.person_id, memory_id, narrative)


def explain(me: Person, turn_id: int) -> Explanation:
    """The classification of one of the person's messages and the memories it was shown."""
    return explain_classification(me.store, me.person_id, turn_id)


ContextType = Literal["classification", "decomposition", "verification"]


def reasoning_context(
    me: Person, query: str, context_type: ContextType, include_active_entities: bool, top_k: int
) -> ReasoningContext:
    """What memory says about a request: the best memories, the open threads, as text."""
    hits = search(me, query, None, False, top_k)
    threads = open_threads(me, None, None) if include_active_entities else []
    lines = [f"- {h.memory.narrative} ({h.memory.destination.name})" for h in hits]
    lines += [f"- open {t.kind.replace('_', ' ')}: {t.text}" for t in threads]
    return ReasoningContext(
        query=query,
        context_type=context_type,
        memories=tuple(hits),
        open_threads=tuple(threads),
        text="\n".join(lines),
    )
