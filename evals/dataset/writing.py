"""The `writing` target's cases: real inputs for one write path that makes memory text, whose
new items are checked against the writing constraints (pipeline/memory/writing.py).

- `extraction`: one long message through multi-fact extraction (its candidate facts);
- `compaction`: a conversation stored and compacted (the summarizer's durable facts);
- `closure`: a conversation through the compression pipeline (its narrative).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from evals.dataset.compaction import Said
from evals.dataset.models import CaseBase, NonEmpty, Strict

WritePath = Literal["extraction", "compaction", "closure"]


class WritingExpect(Strict):
    """How many new items the path must at least write (0: the path may write none, as the
    extractive summarizer, which states no durable facts)."""

    min_items: int = Field(default=1, ge=0, le=10)


class WritingCase(CaseBase):
    """A message (extraction) or turns (compaction, closure) for one write path."""

    path: WritePath
    person: NonEmpty = "Ana"
    message: NonEmpty | None = None
    turns: list[Said] = Field(default_factory=list)
    expect: WritingExpect = Field(default_factory=WritingExpect)

    @model_validator(mode="after")
    def _input(self) -> WritingCase:
        if self.path == "extraction" and (self.message is None or self.turns):
            raise ValueError("an extraction case has a `message` and no `turns`")
        if self.path != "extraction" and (self.message is not None or len(self.turns) < 2):
            raise ValueError(f"a {self.path} case has at least two `turns` and no `message`")
        if any(t.compact is not None for t in self.turns):
            raise ValueError("writing cases compact at the end; `compact` marks are not read")
        return self

    @property
    def roles(self) -> list[tuple[str, str]]:
        """The turns as (role, text)."""
        return [
            ("operator", t.operator) if t.operator is not None else ("companion", t.companion or "")
            for t in self.turns
        ]
