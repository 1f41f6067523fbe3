"""The `closure` target's cases: a finished conversation, the open state before it, and what a
correct compression of it yields (entities, settled open items, destination, narrative points).

Matching is by case-insensitive substring: an expected item lists alternatives (`any`), and is
found when some extracted entity of its kind contains one of them.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from evals.dataset.models import CaseBase, NonEmpty, Strict
from pipeline.conversation_models import YOUR_STORY

OpenKind = Literal["waiting_on", "question", "task", "blocker"]
# The pipeline's kinds for the suite's open-state kinds (pipeline/conversation_models.py).
# A blocker has no open kind in the store; it is shown to the model as `blocker` all the same.
PIPELINE_KIND = {
    "waiting_on": "waiting_on",
    "question": "questions_opened",
    "task": "tasks",
    "blocker": "blocker",
}


class AnyOf(Strict):
    """An expected item: found when an extracted entity contains one of these phrases."""

    any: list[NonEmpty] = Field(min_length=1)

    @property
    def phrases(self) -> list[str]:
        """Every alternative."""
        return list(self.any)


class PersonItem(Strict):
    """An expected person: their name, or another form of it (`alt`)."""

    name: NonEmpty
    alt: list[NonEmpty] = Field(default_factory=list)

    @property
    def phrases(self) -> list[str]:
        """The name and every alternative."""
        return [self.name, *self.alt]


class OpenStateItem(Strict):
    """An open item of earlier memories: a waiting-on has `who` and `what`, others `text`."""

    id: NonEmpty
    kind: OpenKind
    text: NonEmpty | None = None
    who: NonEmpty | None = None
    what: NonEmpty | None = None

    @model_validator(mode="after")
    def _fields(self) -> OpenStateItem:
        if self.kind == "waiting_on":
            if self.who is None or self.what is None or self.text is not None:
                raise ValueError("a waiting_on item has `who` and `what` (and no `text`)")
        elif self.text is None or self.who is not None or self.what is not None:
            raise ValueError(f"a {self.kind} item has `text` (and no `who`/`what`)")
        return self

    @property
    def line(self) -> str:
        """The item's text as the store would show it (pipeline's entity_text)."""
        return f"{self.who}: {self.what}" if self.kind == "waiting_on" else str(self.text)


def _turn_role(raw: Any) -> str:
    if isinstance(raw, dict):
        return "companion" if "companion" in raw else "operator"
    return "companion" if isinstance(raw, CompanionTurn) else "operator"


class OperatorTurn(Strict):
    """What the person said."""

    operator: NonEmpty


class CompanionTurn(Strict):
    """What the companion answered."""

    companion: NonEmpty


ClosureTurn = Annotated[
    Annotated[OperatorTurn, Tag("operator")] | Annotated[CompanionTurn, Tag("companion")],
    Discriminator(_turn_role),
]


class ClosureExpect(Strict):
    """What a correct compression yields. Every entity kind is listed, empty or not."""

    people: list[PersonItem]
    tasks: list[AnyOf]
    decisions: list[AnyOf]
    waiting_on: list[AnyOf]
    questions_resolved: list[AnyOf]
    questions_opened: list[AnyOf]
    blockers_cleared: list[AnyOf]
    insights: list[AnyOf]
    # phrases no extracted entity of any kind may contain
    absent: list[NonEmpty] = Field(default_factory=list)
    resolves: list[NonEmpty] = Field(default_factory=list)
    keeps_open: list[NonEmpty] = Field(default_factory=list)
    destination: NonEmpty
    narrative_must: list[AnyOf] = Field(default_factory=list)

    @model_validator(mode="after")
    def _disjoint(self) -> ClosureExpect:
        both = sorted(set(self.resolves) & set(self.keeps_open))
        if both:
            raise ValueError(f"ids both resolved and kept open: {both}")
        return self

    def items(self, kind: str) -> list[AnyOf] | list[PersonItem]:
        """The expected items of one entity kind."""
        found: list[AnyOf] | list[PersonItem] = getattr(self, kind)
        return found


class ClosureCase(CaseBase):
    """A conversation to compress, as the person closed it."""

    date: date
    person: NonEmpty
    projects: list[NonEmpty] = Field(default_factory=list)
    open_state: list[OpenStateItem] = Field(default_factory=list)
    turns: list[ClosureTurn] = Field(min_length=1)
    expect: ClosureExpect

    @model_validator(mode="after")
    def _references(self) -> ClosureCase:
        ids = [item.id for item in self.open_state]
        if len(set(ids)) != len(ids):
            raise ValueError("open_state ids repeat")
        unknown = sorted({*self.expect.resolves, *self.expect.keeps_open} - set(ids))
        if unknown:
            raise ValueError(f"expect names open_state ids that do not exist: {unknown}")
        if self.expect.destination not in self.destinations:
            raise ValueError(
                f"expect.destination {self.expect.destination!r} is neither 'Your Story' nor "
                "one of `projects`"
            )
        return self

    @property
    def destinations(self) -> list[str]:
        """Your Story and the case's projects, as the routing stage is offered them."""
        return [YOUR_STORY, *[p for p in self.projects if p != YOUR_STORY]]

    @property
    def roles(self) -> list[tuple[str, str]]:
        """The turns as (role, content), oldest first."""
        return [
            ("operator", t.operator) if isinstance(t, OperatorTurn) else ("companion", t.companion)
            for t in self.turns
        ]
