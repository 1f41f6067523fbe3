"""The `compaction` target's cases: a long conversation and what its summary must keep.

Each expected item is one phrase or a list of alternatives (any one present, case-insensitive),
because a summary paraphrases: "dentist on Tuesday" may come back as "Tuesday's dentist visit".
`excludes` are superseded facts (what the person corrected) that must not survive.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from evals.dataset.models import CaseBase, NonEmpty, Strict

# The fewest turns a case may have: fewer is not a long conversation.
MIN_TURNS = 20
Variant = Literal["generic", "personal_assistant"]
# One phrase, or alternatives of which any one will do.
Required = NonEmpty | Annotated[list[NonEmpty], Field(min_length=1)]


class Said(Strict):
    """One turn (`operator: text` or `companion: text`), or `compact: true`: compaction runs
    there, as it would after that turn, so a later one folds its summary."""

    operator: NonEmpty | None = None
    companion: NonEmpty | None = None
    compact: Literal[True] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Said:
        given = [v for v in (self.operator, self.companion, self.compact) if v is not None]
        if len(given) != 1:
            raise ValueError("a turn has exactly one of `operator`, `companion` or `compact`")
        return self


class CompactionExpect(Strict):
    """What must survive into the summary, by kind, and what must not."""

    facts: list[Required] = Field(default_factory=list)
    threads: list[Required] = Field(default_factory=list)
    commitments: list[Required] = Field(default_factory=list)
    excludes: list[NonEmpty] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> CompactionExpect:
        if not (self.facts or self.threads or self.commitments):
            raise ValueError("expect lists at least one of facts, threads or commitments")
        return self

    def items(self) -> list[tuple[str, list[str]]]:
        """(kind, alternatives) of every required item, in order."""
        kinds = (("fact", self.facts), ("thread", self.threads), ("commitment", self.commitments))
        return [
            (kind, [item] if isinstance(item, str) else list(item))
            for kind, items in kinds
            for item in items
        ]


class CompactionCase(CaseBase):
    """A conversation played into the store and compacted through the pipeline's own path."""

    person: NonEmpty = "Sam"  # the person's name, which the compaction template carries
    # the compaction template; absent: the setting's default (personal_assistant)
    variant: Variant | None = None
    # custom instructions, as CONVERSE_COMPACTION_INSTRUCTIONS or a COMPACTION.md gives them
    instructions: str = Field("", max_length=4_000)
    turns: list[Said]
    expect: CompactionExpect

    @model_validator(mode="after")
    def _long_enough(self) -> CompactionCase:
        said = sum(t.compact is None for t in self.turns)
        if said < MIN_TURNS:
            raise ValueError(f"a compaction case has at least {MIN_TURNS} turns; this has {said}")
        if self.turns[-1].compact is not None:
            raise ValueError("the last turn is not `compact`: the case ends with a compaction")
        return self
