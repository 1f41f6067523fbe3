"""Domain models shared by every stage of the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

PERSONAL_SEED = (
    "Personal knowledge — facts, preferences, and context that belong to the person "
    "and travel across all engagements."
)


class Visibility(StrEnum):
    """Who an engagement belongs to: the person alone, or a project."""

    PERSONAL = "personal"
    PROJECT = "project"


class ActorKind(StrEnum):
    """Who made an assertion."""

    OPERATOR = "operator"
    COMPANION = "companion"


# How much an assertion matters, 0..1, unless someone says otherwise (docs/memory.md,
# "Lifecycle"): above the default sweep threshold, so an ordinary fact is never forgotten
# for want of use alone.
DEFAULT_IMPORTANCE = 0.5
# The category of personal memory unless one is named (pipeline/categories.yaml, defaults).
DEFAULT_CATEGORY = "profile"


class HistoryOp(StrEnum):
    """What a write did to an assertion (its history, docs/memory.md "History").

    MERGE is named for the write that will combine assertions; nothing performs it yet. LINK
    is an edge to a related fact (pipeline/store/relations.py).
    """

    ADD = "ADD"  # a new assertion
    UPDATE = "UPDATE"  # content amended, force changed (committed, retracted), pin, importance
    DELETE = "DELETE"  # removed for good: erased on request, or purged after soft deletion
    MERGE = "MERGE"
    LINK = "LINK"
    TTL = "TTL"  # soft-deleted by the lifecycle sweep (unused, unimportant, not pinned)
    RESTORE = "RESTORE"  # a retracted or soft-deleted assertion brought back


class HistoryActor(StrEnum):
    """Who made a write: the person in conversation, the companion on its own (offering to
    remember), a background job, or someone at the command line or the Python API."""

    OPERATOR = "operator"
    COMPANION = "companion"
    SYSTEM = "system"
    CLI = "cli"


class NormativeForce(StrEnum):
    """How much weight an assertion carries: offered, settled, or withdrawn."""

    HELD = "held"
    COMMITTED = "committed"
    RETRACTED = "retracted"


class ProfileField(StrEnum):
    """A profile field whose change waits for the person's consent (specification 004,
    "Consent Policy"; pipeline/memory/consent.py). NONE is a reading that the fact changes
    none of them, told apart from an answer that does not say."""

    PREFERRED_NAME = "preferred_name"
    PRONOUNS = "pronouns"
    CITY = "city"
    LANGUAGE = "language"
    NONE = "none"

    @property
    def label(self) -> str:
        """The field as a person reads it ("preferred name")."""
        return self.value.replace("_", " ")


class Role(StrEnum):
    """The speaker of a conversation turn."""

    OPERATOR = "operator"
    COMPANION = "companion"


class Frozen(BaseModel):
    """Base for immutable value objects."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Person(Frozen):
    """Someone who talks to the companion."""

    id: int
    name: str
    personal_engagement_id: int | None


class Engagement(Frozen):
    """A container of assertions: a person's personal memory or a project."""

    id: int
    name: str
    visibility: Visibility
    seed: str
    owner_person_id: int | None


class Assertion(Frozen):
    """One piece of knowledge in an engagement."""

    id: int
    engagement_id: int
    display_number: int
    content: str
    actor: ActorKind
    force: NormativeForce
    retraction_rationale: str | None = None
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime | None = None
    importance: float = DEFAULT_IMPORTANCE
    pinned: bool = False
    deleted_at: datetime | None = None
    # pipeline/categories.yaml; the store gives each new assertion its engagement's default.
    category: str = DEFAULT_CATEGORY
    # The sensitive profile field a personal fact changes, as read when it was held (never
    # NONE: a fact that changes none stores None); held, it waits for consent.
    profile_field: ProfileField | None = None


class HistoryEntry(Frozen):
    """One row of an assertion's history; text fields are None once erased (or when the
    operation does not change them)."""

    id: int
    assertion_id: int
    engagement_id: int
    display_number: int
    op: HistoryOp
    actor: HistoryActor
    old_content: str | None
    new_content: str | None
    old_force: NormativeForce | None
    new_force: NormativeForce | None
    detail: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime


class PromptRef(Frozen):
    """Which template produced part of a prompt: family, version and a hash of its source."""

    family: str
    version: str
    sha256: str


class Usage(Frozen):
    """Token counts of one model call."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    # of cache_creation_input_tokens, those written with the one-hour TTL (priced apart)
    cache_creation_1h_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_input_tokens=self.cache_read_input_tokens + other.cache_read_input_tokens,
            cache_creation_input_tokens=(
                self.cache_creation_input_tokens + other.cache_creation_input_tokens
            ),
            cache_creation_1h_input_tokens=(
                self.cache_creation_1h_input_tokens + other.cache_creation_1h_input_tokens
            ),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryTurn:
    """An earlier turn as the classifier and responder see it.

    A plain dataclass, not a model: every turn builds up to HISTORY_CAP of them from stored
    rows, and building pydantic models was most of the history's cost."""

    role: Role
    content: str
    intent: str | None = None
    operation_data: dict[str, Any] = field(default_factory=dict)


class MemoryChange(Frozen):
    """One change a handler made to stored assertions, for display and audit."""

    engagement_id: int
    display_number: int
    content: str
    before: NormativeForce | None
    after: NormativeForce

    @classmethod
    def of(cls, assertion: Assertion, before: NormativeForce | None) -> MemoryChange:
        """The change that left `assertion` as it is now, from `before` (None: new)."""
        return cls(
            engagement_id=assertion.engagement_id,
            display_number=assertion.display_number,
            content=assertion.content,
            before=before,
            after=assertion.force,
        )


class RouteResult(Frozen):
    """What a handler did: operation data for the prompt and the changes it stored."""

    intent: str
    operation_data: dict[str, Any] = Field(default_factory=dict)
    changes: tuple[MemoryChange, ...] = ()
    # What the message's later acts did, in order (pipeline/intents/acts.py); `changes`
    # holds theirs too.
    also: tuple[RouteResult, ...] = ()


class Reply(Frozen):
    """The responder's answer."""

    text: str
    provider: str = ""
    model: str = ""
    usage: Usage = Usage()
    # The model stopped at max_tokens: the text is kept, but it ends where it was cut off.
    truncated: bool = False


class MemoryNote(Frozen):
    """A conversation memory or open thread put before the classifier, and why it was chosen
    (kept with the turn, so `converse explain` can show what influenced a classification)."""

    memory_id: int
    kind: str  # "memory" (a narrative) or an open thread's kind ("tasks", "waiting_on", ...)
    text: str
    score: float
    reason: str


class Turn(Frozen):
    """A persisted conversation turn."""

    id: int
    person_id: int
    engagement_id: int | None
    role: Role
    content: str
    intent: str | None
    operation_data: dict[str, Any]
    prompt_refs: tuple[PromptRef, ...]
    channel: str
    created_at: datetime
    meta: dict[str, Any] = Field(default_factory=dict)
