"""A turn's toolbox: the tools a responder may call, bound to one person and one turn.

Searches read the store at once. Status notes are kept as pending and written by converse() in
the transaction that stores the turn, with the operator turn as their source, so a turn that
is not stored leaves no note behind and erasing that turn erases its note. Every call is
recorded by name and outcome only (never its text), for the turn's metadata.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from pipeline.domain import Person
from pipeline.errors import InvalidMessage
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.memory.archive import DEFAULT_BUDGET_TOKENS, SearchType, recall
from pipeline.memory.embeddings import Embedder
from pipeline.memory.status import NoteInput, checked_note, write_note
from pipeline.store import Store
from pipeline.store.status import StatusNote
from pipeline.store.turns import last_turn_ids
from pipeline.tools.specs import (
    SEARCH_MEMORY,
    TOOLS,
    UPDATE_STATUS,
    SearchMemoryInput,
    ToolSpec,
    UpdateStatusInput,
)

MAX_NOTES_PER_TURN = 3
MAX_SEARCHES_PER_TURN = 3


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gives back to the model; `is_error` when the call was refused."""

    text: str
    is_error: bool = False


@dataclass(frozen=True)
class ToolCall:
    """A call as the turn's metadata records it: no input text, so nothing needs erasing."""

    name: str
    ok: bool
    error: str | None = None


@dataclass
class Toolbox:
    """The tools of one turn of one person."""

    store: Store
    person: Person
    engagement_id: int | None
    now: datetime
    history_turns: int = 0
    embedder: Embedder | None = None
    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    # the bundle's lexicon (pipeline/lexicon.py): the query words a search skips and the
    # words a status note's topic drops at its start
    lexicon: Lexicon = NO_LEXICON
    specs: tuple[ToolSpec, ...] = TOOLS
    pending: list[NoteInput] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)

    def call(self, name: str, arguments: Any) -> ToolResult:
        """Run a tool by name; bad input from the model is a refused call, never an exception."""
        try:
            if name == UPDATE_STATUS:
                result = self._update_status(UpdateStatusInput.model_validate(arguments))
            elif name == SEARCH_MEMORY:
                result = self._search(SearchMemoryInput.model_validate(arguments))
            else:
                known = ", ".join(s.name for s in self.specs)
                result = ToolResult(f"there is no tool {name!r}; the tools are {known}", True)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "input"
            result = ToolResult(f"bad input for {name}: {where}: {first['msg']}", True)
        except InvalidMessage as exc:
            result = ToolResult(exc.one_line(), True)
        self.calls.append(
            ToolCall(name, not result.is_error, result.text if result.is_error else None)
        )
        return result

    def _update_status(self, given: UpdateStatusInput) -> ToolResult:
        if len(self.pending) >= MAX_NOTES_PER_TURN:
            return ToolResult(f"at most {MAX_NOTES_PER_TURN} status notes a turn", True)
        note = checked_note(given.topic, given.text, self.lexicon.topic_openers)
        self.pending = [p for p in self.pending if p.topic != note.topic] + [note]
        return ToolResult(f"noted under {note.topic!r}: {note.text}")

    def _search(self, given: SearchMemoryInput) -> ToolResult:
        if sum(c.name == SEARCH_MEMORY for c in self.calls) >= MAX_SEARCHES_PER_TURN:
            return ToolResult(f"at most {MAX_SEARCHES_PER_TURN} searches a turn", True)
        query = " ".join(given.query.split())
        if not query:
            return ToolResult("the search query is empty", True)
        found = self._lines(query, given.search_type, include_context=False)
        if not found:
            return ToolResult(f"nothing found for {query!r}")
        return ToolResult("\n".join(found))

    def search(self, query: str, *, include_context: bool = False) -> list[str]:
        """search_memory called directly (a responder with no model, which reads no context:
        `include_context` keeps the turns in the context among the results)."""
        if sum(c.name == SEARCH_MEMORY for c in self.calls) >= MAX_SEARCHES_PER_TURN:
            self.calls.append(ToolCall(SEARCH_MEMORY, False, "too many searches"))
            return []
        lines = self._lines(" ".join(query.split()), "both", include_context=include_context)
        self.calls.append(ToolCall(SEARCH_MEMORY, True))
        return lines

    def _lines(self, query: str, search_type: SearchType, *, include_context: bool) -> list[str]:
        """Recall lines for a query, within the budget; the turns in the context left out
        unless `include_context`."""
        facts = [e for e in (self.person.personal_engagement_id, self.engagement_id) if e]
        # The semantic search stores the vectors it lacks (pipeline/memory/search.py), so with
        # an embedder it runs in a write transaction, as the recall handler's does.
        opened = self.store.write() if self.embedder is not None else self.store.read()
        with opened as session:
            in_context = (
                []
                if include_context
                else last_turn_ids(session, self.person.id, self.engagement_id, self.history_turns)
            )
            found = recall(
                session,
                person_id=self.person.id,
                operator_name=self.person.name,
                fact_engagement_ids=facts,
                turn_engagement_id=self.engagement_id,
                query=query,
                now=self.now,
                embedder=self.embedder,
                search_type=search_type,
                budget_tokens=self.budget_tokens,
                before_turn_id=min(in_context) if in_context else None,
                stop_words=self.lexicon.stop_words,
            )
        return list(found.lines)

    def note(self, topic: str, text: str) -> ToolResult:
        """update_status called directly (a responder with no model)."""
        return self.call(UPDATE_STATUS, {"topic": topic, "text": text})

    def persist(
        self, session: Session, source_turn_id: int, written_by: str
    ) -> Sequence[StatusNote]:
        """Write the pending notes; called in the transaction that stores the turn."""
        return [
            write_note(
                session,
                self.person.id,
                note,
                at=self.now,
                written_by=written_by,
                source_turn_id=source_turn_id,
            )
            for note in self.pending
        ]

    def meta(self) -> list[dict[str, Any]]:
        """The calls as the companion turn's metadata records them: names and outcomes only,
        since a refusal's message may quote the model's input (the person's words)."""
        return [{"name": c.name, "ok": c.ok} for c in self.calls]
