"""The `consolidation` target's cases: a person's memory seeded with duplicates and distinct
near-neighbours, then one pass of the consolidation job.

`facts` lists the person's facts; each is one statement or several statements of the same
fact (its duplicates). Every statement is stored committed, a day old, oldest first in the
order given.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from evals.dataset.models import CaseBase, NonEmpty, Strict

Statements = NonEmpty | Annotated[list[NonEmpty], Field(min_length=1)]


class ConsolidationExpect(Strict):
    """How many duplicates may remain after the pass (none wrongly merged, always)."""

    duplicates_after: int = Field(0, ge=0)


class ConsolidationCase(CaseBase):
    """A person's facts, some stated more than once, consolidated by the worker's job."""

    person: NonEmpty = "Sam"
    facts: Annotated[list[Statements], Field(min_length=2)]
    expect: ConsolidationExpect = ConsolidationExpect()

    def groups(self) -> list[list[str]]:
        """Each fact's statements."""
        return [[f] if isinstance(f, str) else list(f) for f in self.facts]
