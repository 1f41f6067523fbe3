"""The `conversation` target's cases: whole conversations and the memory they must leave behind.

Kept apart from models.py because a conversation case is a small language of its own: turns
that are messages or operator erasures, each with optional checks on the stored memory.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag, ValidationError, field_validator, model_validator

from evals.dataset.models import CaseBase, Memory, NonEmpty, Strict, TextCheck, known_intent
from evals.dataset.reading import GoldReading
from pipeline.domain import NormativeForce
from pipeline.settings import Settings


class Note(Memory):
    """Project knowledge stored before turn 1; `age` defaults to the moment the case starts."""

    project: NonEmpty
    age: str = "0 minutes"


class FactCheck(Strict):
    """One stored fact the memory must hold: its force (default held or committed) and text."""

    state: NormativeForce | None = None
    text: TextCheck = Field(default_factory=TextCheck)


class MemoryExpect(Strict):
    """Checks on personal memory after a turn (what an erase turn may check)."""

    memory: list[FactCheck] | None = None
    # alone (no `memory`), it means no held or committed personal fact exists at all
    memory_only: bool = False


class StatusCheck(Strict):
    """A current status note the person must have: its topic (compared as the store keys it)
    and checks on its text."""

    topic: NonEmpty
    text: TextCheck = Field(default_factory=TextCheck)


class TurnExpect(MemoryExpect):
    """Checks after a message turn; every key is optional."""

    intent: str | None = None
    action: NonEmpty | None = None
    notes: list[FactCheck] | None = None
    reply: TextCheck | None = None
    # what the responder was sent: the whole system prompt of the turn
    prompt: TextCheck | None = None
    # the person's current status notes after the turn (each entry a distinct note)
    status: list[StatusCheck] | None = None

    @field_validator("intent")
    @classmethod
    def _intent(cls, value: str | None) -> str | None:
        return None if value is None else known_intent(value)


class MessageTurn(Strict):
    """The operator says something, in a project or outside any; `after` is how long after the
    previous turn (default one minute), so a case can open a new session."""

    message: NonEmpty
    project: NonEmpty | None = None
    after: str | None = None
    # what a perfect reader answers for `message` (docs/evals.md, "Gold readings")
    reading: GoldReading | None = None
    expect: TurnExpect | None = None

    @field_validator("after")
    @classmethod
    def _after(cls, value: str | None) -> str | None:
        if value is not None:
            Memory(content="-", age=value)  # the same durations as a memory's age
        return value

    @property
    def gap(self) -> timedelta:
        """The time since the previous turn."""
        if self.after is None:
            return timedelta(minutes=1)
        return Memory(content="-", age=self.after).elapsed

    @model_validator(mode="after")
    def _notes_need_project(self) -> MessageTurn:
        if self.expect is not None and self.expect.notes is not None and self.project is None:
            raise ValueError("expect.notes checks the turn's project knowledge; set `project`")
        return self


class EraseTurn(Strict):
    """The operator permanently erases the one personal fact whose content contains `erase`."""

    erase: NonEmpty
    expect: MemoryExpect | None = None


def _turn_kind(raw: Any) -> str:
    if isinstance(raw, EraseTurn) or (isinstance(raw, dict) and "erase" in raw):
        return "erase"
    return "message"


# Told apart by the `erase` key, so a typo reports one turn kind's fields, not both kinds'.
Turn = Annotated[
    Annotated[MessageTurn, Tag("message")] | Annotated[EraseTurn, Tag("erase")],
    Discriminator(_turn_kind),
]


class WorkingMemorySeed(Strict):
    """The person's working memory before turn 1: a summary written `written` ago (kept for
    `ttl_days`, cut to `budget_tokens`), or a raw `document` as stored (to test bad ones)."""

    summary: NonEmpty | None = None
    written: str = "1 hours"
    ttl_days: int = Field(default=14, ge=1, le=365)
    budget_tokens: int = Field(default=1_000, ge=100, le=4_000)
    document: NonEmpty | None = None

    @model_validator(mode="after")
    def _one_form(self) -> WorkingMemorySeed:
        if (self.summary is None) == (self.document is None):
            raise ValueError("working_memory has exactly one of `summary` or `document`")
        Memory(content="-", age=self.written)
        return self

    @property
    def age(self) -> timedelta:
        """How long before the case starts the summary was written."""
        return Memory(content="-", age=self.written).elapsed


def checked_settings(values: dict[str, Any]) -> dict[str, Any]:
    """Settings named as in pipeline/settings.py (lower case, no CONVERSE_ prefix), each value
    checked against its range; the values as the pipeline reads them."""
    unknown = sorted(set(values) - set(Settings.model_fields))
    if unknown:
        raise ValueError(
            f"unknown setting {unknown[0]!r}; settings are named as in pipeline/settings.py "
            "(docs/memory.md lists them)"
        )
    try:
        # model_validate reads no CONVERSE_* variable: only the values given are checked
        validated = Settings.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ValueError(f"setting {first['loc'][0]}: {first['msg']}") from None
    return {name: getattr(validated, name) for name in values}


class ConversationCase(CaseBase):
    """Seeds, then turns run in order on a fresh store."""

    memories: list[Memory] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    working_memory: WorkingMemorySeed | None = None
    # Pipeline settings the case runs under, over the environment's (the suite's `settings:`
    # apply to every case; a case's own win).
    settings: dict[str, Any] = Field(default_factory=dict)
    turns: list[Turn] = Field(min_length=1)

    @field_validator("settings")
    @classmethod
    def _settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        checked_settings(value)
        return value

    @property
    def expect(self) -> tuple[MessageTurn | EraseTurn, ...]:
        """The turns carry the expectations; the scorer reads them all."""
        return tuple(self.turns)

    @property
    def projects(self) -> list[str]:
        """Every project the case names, in order of first mention."""
        named = [n.project for n in self.notes]
        named += [t.project for t in self.turns if isinstance(t, MessageTurn) and t.project]
        return list(dict.fromkeys(named))
