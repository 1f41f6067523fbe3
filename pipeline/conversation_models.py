"""Value objects of the conversation lifecycle (docs/conversations.md): conversations,
memories, their entities and state deltas, and the answers each compression stage must give.

The stage answers are strict (unknown keys refused, bounded lengths): a model's output is
validated against them, and their JSON schema is what the model is constrained to.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipeline.domain import Frozen, PromptRef

YOUR_STORY = "Your Story"


class ConversationStatus(StrEnum):
    """Where a conversation is in its life."""

    ACTIVE = "active"
    READY_TO_CLOSE = "ready_to_close"
    COMPRESSING = "compressing"
    ARCHIVED = "archived"


class Conversation(Frozen):
    """A conversation as stored."""

    id: int
    person_id: int
    status: ConversationStatus
    is_paused: bool
    paused_at: datetime | None
    started_at: datetime
    last_message_at: datetime | None
    closed_at: datetime | None
    archived_at: datetime | None
    message_count: int
    compression: dict[str, Any] = Field(default_factory=dict)


class MemoryStatus(StrEnum):
    """A draft is what the review shows; a confirmed memory is kept."""

    DRAFT = "draft"
    CONFIRMED = "confirmed"


class EntityStatus(StrEnum):
    """Open entities (tasks, waiting-ons, open questions) stay active until resolved."""

    ACTIVE = "active"
    RESOLVED = "resolved"


class Destination(Frozen):
    """Where a memory lives: the permanent Your Story, or a project."""

    id: int
    name: str
    kind: str  # your_story | project
    engagement_id: int | None
    archived: bool = False


class MemoryEntity(Frozen):
    """One stored entity of a memory."""

    id: int
    memory_id: int
    kind: str
    text: str
    data: dict[str, Any]
    status: EntityStatus
    resolved_by: int | None
    created_at: datetime


class StateDelta(Frozen):
    """A change to the open state: `resolve` an earlier entity, or `open` a new one."""

    id: int
    memory_id: int
    kind: str
    text: str
    entity_id: int | None
    applied: bool


class Memory(Frozen):
    """A memory with its destination, entities and deltas."""

    id: int
    person_id: int
    conversation_id: int
    destination: Destination
    status: MemoryStatus
    narrative: str
    original_narrative: str
    method: str
    created_at: datetime
    confirmed_at: datetime | None
    entities: tuple[MemoryEntity, ...] = ()
    deltas: tuple[StateDelta, ...] = ()

    @property
    def edited(self) -> bool:
        """Whether the narrative was changed in review (the original stays)."""
        return self.narrative != self.original_narrative


# --- what the compression stages answer -------------------------------------------------------


class Strict(BaseModel):
    """A stage answer: unknown keys are refused, so a model that invents fields is retried."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# Tight bounds: they become the grammar a local model is held to, so a small model cannot
# ramble its way to the token limit.
Short = Field(min_length=1, max_length=160)
Note = Field(max_length=160)
MAX_ITEMS = 8


class PersonMention(Strict):
    """A person mentioned: name, what about them, their relation to the person."""

    name: str = Short
    context: str = Note
    relation: str = Note


class Task(Strict):
    """Something to be done: description, status (open, decided, in progress, done), priority."""

    description: str = Short
    status: str = Note
    priority: str = Note


class Decision(Strict):
    """What was decided, and why."""

    what: str = Short
    why: str = Note


class WaitingOn(Strict):
    """Someone the person is waiting on, for what, since when."""

    who: str = Short
    what: str = Short
    since: str = Note


class QuestionResolved(Strict):
    """A question that got its answer."""

    question: str = Short
    answer: str = Note


class QuestionOpened(Strict):
    """A question raised and still open."""

    question: str = Short


class BlockerCleared(Strict):
    """An obstacle removed, and what it unblocks."""

    what: str = Short
    unblocks: str = Note


class Insight(Strict):
    """A realisation about the person or their situation."""

    text: str = Short


class Entities(Strict):
    """What a conversation holds, kind by kind (the entity extraction stage's answer)."""

    people: list[PersonMention] = Field(max_length=MAX_ITEMS)
    tasks: list[Task] = Field(max_length=MAX_ITEMS)
    decisions: list[Decision] = Field(max_length=MAX_ITEMS)
    waiting_on: list[WaitingOn] = Field(max_length=MAX_ITEMS)
    questions_resolved: list[QuestionResolved] = Field(max_length=MAX_ITEMS)
    questions_opened: list[QuestionOpened] = Field(max_length=MAX_ITEMS)
    blockers_cleared: list[BlockerCleared] = Field(max_length=MAX_ITEMS)
    insights: list[Insight] = Field(max_length=MAX_ITEMS)

    @classmethod
    def empty(cls) -> Entities:
        """No entities at all."""
        return cls(
            people=[],
            tasks=[],
            decisions=[],
            waiting_on=[],
            questions_resolved=[],
            questions_opened=[],
            blockers_cleared=[],
            insights=[],
        )

    def items(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every entity as (kind, one-line text, fields), in a fixed kind order."""
        out: list[tuple[str, str, dict[str, Any]]] = []
        for kind in ENTITY_KINDS:
            for item in getattr(self, kind):
                out.append((kind, entity_text(kind, item.model_dump()), item.model_dump()))
        return out


EntityKind = Literal[
    "people",
    "tasks",
    "decisions",
    "waiting_on",
    "questions_resolved",
    "questions_opened",
    "blockers_cleared",
    "insights",
]
ENTITY_KINDS: tuple[EntityKind, ...] = get_args(EntityKind)
# How the review and the Markdown export name each kind.
ENTITY_LABELS: dict[str, str] = {
    "people": "Person",
    "tasks": "Task",
    "decisions": "Decision",
    "waiting_on": "Waiting on",
    "questions_resolved": "Answered",
    "questions_opened": "Open question",
    "blockers_cleared": "Unblocked",
    "insights": "Insight",
}
# Kinds that stay open until a later conversation resolves them (the startup greeting's).
OPEN_KINDS = ("tasks", "waiting_on", "questions_opened")


def entity_text(kind: str, fields: dict[str, Any]) -> str:
    """One line for an entity, as the preview and the open state show it."""
    data: dict[str, str]

    data = {str(k): str(v) for k, v in fields.items()}

    def extra(*parts: str) -> str:
        kept = [p for p in parts if p]
        return f" ({'; '.join(kept)})" if kept else ""

    match kind:
        case "people":
            return data["name"] + extra(data.get("relation", ""), data.get("context", ""))
        case "tasks":
            return data["description"] + extra(data.get("status", ""), data.get("priority", ""))
        case "decisions":
            return data["what"] + (f" — because {data['why']}" if data.get("why") else "")
        case "waiting_on":
            return f"{data['who']}: {data['what']}" + extra(data.get("since", ""))
        case "questions_resolved":
            return data["question"] + (f" → {data['answer']}" if data.get("answer") else "")
        case "questions_opened":
            return str(data["question"])
        case "blockers_cleared":
            return data["what"] + (
                f" (unblocks {data['unblocks']})" if data.get("unblocks") else ""
            )
        case _:
            return str(data.get("text", ""))


_SENTENCE_END = re.compile(r"[.!?…]+(?=\s|$)")
MIN_SENTENCES, MAX_SENTENCES = 2, 4


def sentence_count(text: str) -> int:
    """Sentences in a narrative: runs of text ended by . ! ? (a trailing fragment counts)."""
    parts = [p for p in _SENTENCE_END.split(text.strip()) if p.strip()]
    return len(parts)


class NarrativeAnswer(Strict):
    """The narrative stage's answer: 2–4 sentences on what the conversation meant."""

    narrative: str = Field(min_length=1, max_length=700)

    @field_validator("narrative")
    @classmethod
    def _sentences(cls, value: str) -> str:
        value = " ".join(value.split())
        count = sentence_count(value)
        if not MIN_SENTENCES <= count <= MAX_SENTENCES:
            raise ValueError(
                f"the narrative has {count} sentences; it must have {MIN_SENTENCES} to "
                f"{MAX_SENTENCES}"
            )
        return value


class Resolution(Strict):
    """An open item from the list that this conversation settled, and why."""

    entity_id: int
    reason: str = Short


class DeltasAnswer(Strict):
    """The state delta stage's answer: which open items this conversation resolved."""

    resolved: list[Resolution] = Field(max_length=MAX_ITEMS)


class RoutingAnswer(Strict):
    """The routing stage's answer: where the memory should live, how sure, and why."""

    destination: str = Short
    confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str = Short


class OpenItem(Frozen):
    """An open entity of earlier memories, as the state delta stage sees it."""

    id: int
    kind: str
    text: str


class StageRecord(Frozen):
    """What one stage did: its method (model, or `deterministic (no model)`), how many
    attempts it took, and the error recorded when the model's answers were unusable."""

    stage: str
    method: str
    attempts: int = 0
    error: str | None = None
    prompt: PromptRef | None = None


class Extraction(Frozen):
    """The compression pipeline's result for one conversation, before review."""

    entities: Entities
    narrative: str
    resolved: tuple[Resolution, ...]
    routing: RoutingAnswer
    stages: tuple[StageRecord, ...]
    # The writing rules (pipeline/memory/writing.py) the narrative broke as first written;
    # empty when it passed on the first pass.
    narrative_problems: tuple[str, ...] = ()

    @property
    def method(self) -> str:
        """The methods of the stages, one line (what the memory row records)."""
        seen: list[str] = []
        for stage in self.stages:
            if stage.method not in seen:
                seen.append(stage.method)
        return ", ".join(seen)


class Preview(Frozen):
    """What the review shows: the conversation and its draft memories."""

    conversation: Conversation
    memories: tuple[Memory, ...]
    suggestion: RoutingAnswer | None
    stages: tuple[StageRecord, ...]
    destinations: tuple[str, ...]
