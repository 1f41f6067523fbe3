"""The suite file contract as pydantic models (DESIGN.md, "Suite file contract").

Every model forbids unknown fields, so a typo in a suite file is an error naming the field, not
an expectation that is silently never checked.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from evals.dataset.reading import GoldReading
from pipeline.conversation_models import EntityKind
from pipeline.domain import NormativeForce
from pipeline.intents.taxonomy import INTENTS

Target = Literal[
    "classify",
    "memory_block",
    "forget_match",
    "conversation",
    "compaction",
    "closure",
    "consolidation",
    "writing",
]
TARGETS: tuple[Target, ...] = (
    "classify",
    "memory_block",
    "forget_match",
    "conversation",
    "compaction",
    "closure",
    "consolidation",
    "writing",
)
ForgetAction = Literal["confirm_retraction", "ambiguous", "no_match"]

_AGE = re.compile(r"^\s*(\d+)\s*(minute|hour|day|week|month|year)s?\s*$")
_UNIT_MINUTES = {
    "minute": 1,
    "hour": 60,
    "day": 60 * 24,
    "week": 60 * 24 * 7,
    "month": 60 * 24 * 30,
    "year": 60 * 24 * 365,
}


class Strict(BaseModel):
    """Immutable, and unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


NonEmpty = Annotated[str, Field(min_length=1)]


def known_intent(value: str) -> str:
    """The value, if it names an intent of the taxonomy."""
    if value not in INTENTS:
        raise ValueError(f"unknown intent {value!r}; intents: {', '.join(INTENTS)}")
    return value


class Gate(Strict):
    """When a suite's run passes: accuracy over scored cases, failed critical cases, errors.

    Errors are bounded even when the suite names no bound (`max_errors` then is 0), so a run
    whose every case errored can never pass.
    """

    accuracy: float | None = Field(default=None, ge=0.0, le=1.0)
    critical_failures: int | None = Field(default=None, ge=0)
    max_error_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    max_errors: int | None = Field(default=None, ge=0)
    # closure suites: the least F1 of each named entity kind, pooled over the cases
    f1: dict[EntityKind, Annotated[float, Field(ge=0.0, le=1.0)]] | None = None
    # writing suites: the least share of new items passing the writing constraints as written
    first_pass_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    # perturbed runs (docs/evals.md, "Robustness"): under every perturbation, the least share
    # of changed cases whose verdict stays, and the most the accuracy may fall
    invariance: float | None = Field(default=None, ge=0.0, le=1.0)
    max_accuracy_drop: float | None = Field(default=None, ge=0.0, le=1.0)

    @property
    def error_bound(self) -> int | None:
        """The bound on the count of errors: the suite's own, else 0 when it set no rate."""
        if self.max_errors is not None:
            return self.max_errors
        return 0 if self.max_error_rate is None else None


class TextCheck(Strict):
    """Substrings a text must contain and must not contain (case-insensitive)."""

    contains: list[NonEmpty] = Field(default_factory=list)
    excludes: list[NonEmpty] = Field(default_factory=list)


class HistoryEntry(Strict):
    """One earlier turn: `operator: text` or `companion: text` with the intent it served."""

    operator: str | None = None
    companion: str | None = None
    intent: str | None = None
    operation_data: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_speaker(self) -> HistoryEntry:
        if (self.operator is None) == (self.companion is None):
            raise ValueError("a history entry has exactly one of `operator` or `companion`")
        if self.intent is not None:
            known_intent(self.intent)
        return self

    @property
    def role(self) -> str:
        """`operator` or `companion`."""
        return "operator" if self.operator is not None else "companion"

    @property
    def content(self) -> str:
        """What was said."""
        return self.operator if self.operator is not None else (self.companion or "")


class Memory(Strict):
    """A stored personal assertion: its content, how long ago it was noted, its force."""

    content: NonEmpty
    age: str
    state: NormativeForce = NormativeForce.COMMITTED

    @field_validator("age")
    @classmethod
    def _age(cls, value: str) -> str:
        if not _AGE.match(value):
            raise ValueError(
                f"age {value!r} is not like '59 minutes', '3 days' or '2 weeks' "
                "(units: minutes, hours, days, weeks, months, years)"
            )
        return value

    @property
    def elapsed(self) -> timedelta:
        """The age as a duration."""
        found = _AGE.match(self.age)
        assert found is not None
        return timedelta(minutes=int(found.group(1)) * _UNIT_MINUTES[found.group(2)])


class ClassifyExpect(Strict):
    """The intent and, optionally, checks on extracted parameters."""

    intent: str
    params: dict[str, TextCheck] = Field(default_factory=dict)

    _intent = field_validator("intent")(known_intent)


class MemoryBlockExpect(Strict):
    """Checks on the personal-memory block."""

    includes: list[NonEmpty] = Field(default_factory=list)
    excludes: list[NonEmpty] = Field(default_factory=list)
    order: list[NonEmpty] = Field(default_factory=list)
    max_chars: int | None = Field(default=None, ge=0)
    exact_chars: int | None = Field(default=None, ge=0)
    empty: bool | None = None


class ForgetExpect(Strict):
    """The matcher's action and the contents it matched (a set)."""

    action: ForgetAction
    matched: list[str] = Field(default_factory=list)


class CaseBase(Strict):
    """What every case has."""

    id: NonEmpty
    tags: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _printable_id(cls, value: str) -> str:
        # An id names the case in reports, links and the review page's form, where a newline
        # or NUL cannot survive (browsers rewrite line breaks and drop NUL): refused here.
        bad = next((c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
        if bad is not None:
            raise ValueError(
                f"case id {value!r} holds the control character U+{ord(bad):04X}; "
                "use letters, digits, spaces and punctuation"
            )
        return value


class ClassifyCase(CaseBase):
    """One message to classify, with optional project and earlier turns."""

    project: str | None = None
    history: list[HistoryEntry] = Field(default_factory=list)
    message: NonEmpty
    expect: ClassifyExpect
    # what a perfect reader answers for `message` (docs/evals.md, "Gold readings")
    reading: GoldReading | None = None


class MemoryBlockCase(CaseBase):
    """Stored memories and what the block built from them must look like."""

    memories: list[Memory]
    expect: MemoryBlockExpect


class ForgetCase(CaseBase):
    """Stored memories and a forget description (`message`)."""

    memories: list[Memory]
    message: NonEmpty
    expect: ForgetExpect


class SuiteHeader(Strict):
    """A suite file without its cases (validated first, so cases know their target)."""

    # `$schema: ../suite.schema.json` (or a URL) lets editors validate the file as it is
    # written (`converse suites schema`); the harness reads no further meaning into it.
    schema_ref: str | None = Field(default=None, alias="$schema")
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")]
    target: Target
    description: str = ""
    gate: Gate | None = None
    # Pipeline settings every case runs under (the `conversation` target only), e.g.
    # {multi_fact_extraction: true}; a case's own `settings:` win over these.
    settings: dict[str, Any] | None = None
    # Perturbations every run of the suite adds (classify, forget_match, conversation), e.g.
    # [casual, texting, keyboard_typos]; `converse eval --perturb` replaces them.
    perturb: list[str] | None = None
    # How a case's epochs (`--epochs K`) reduce to one score: mean (the default), majority,
    # pass@k or all-k (evals/runner/reducers.py); `converse eval --reducer` replaces it.
    epochs_reducer: Literal["mean", "majority", "pass@k", "all-k"] | None = None
    cases: list[Any]
