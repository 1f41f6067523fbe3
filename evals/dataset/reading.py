"""A gold reading in a suite: what a perfect reader would answer for one operator message, as
a list of acts (docs/evals.md, "Gold readings"; pipeline/domain.py, Act).

An act is written flat in the suite (`{intent, params, relation, answers, corrected, ...}`) and
turned into the core's `Act` with its `Reading` when it has a relation. The checks that need
the case around the act (which parameters its intent takes, whether the item it answers can
exist) are in evals/dataset/gold.py, so their errors name the field exactly.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipeline.domain import ProfileField
from pipeline.intents.taxonomy import INTENTS
from pipeline.reading import ITEM_REF, Act, Reading, Relation, StatusReport


class GoldStatus(BaseModel):
    """A status report the act makes: where an ongoing thing stands."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    topic: Annotated[str, Field(min_length=1)]
    text: Annotated[str, Field(min_length=1)]
    until: str = ""


class GoldAct(BaseModel):
    """One act of a gold reading; every key but `intent` is optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    intent: str
    params: dict[str, str] = Field(default_factory=dict)
    # only when the act answers something pending
    relation: Relation | None = None
    # which pending item: a display number (3, "#3") or a project note ("notes#2")
    answers: int | str | None = None
    corrected: str = ""
    chosen: list[Annotated[int, Field(ge=1, lt=2**31)]] = Field(default_factory=list)
    project_only: bool = False
    restore: bool = False
    question: bool = False
    profile_field: ProfileField | None = None
    status: GoldStatus | None = None

    @field_validator("intent")
    @classmethod
    def _intent(cls, value: str) -> str:
        if value not in INTENTS:
            raise ValueError(f"unknown intent {value!r}; intents: {', '.join(INTENTS)}")
        return value

    @field_validator("answers")
    @classmethod
    def _answers(cls, value: int | str | None) -> int | str | None:
        # the core's own forms of an item reference (pipeline/domain.py, Reading.answers)
        if value is None:
            return None
        if isinstance(value, bool):
            raise ValueError("answers is a display number such as 3, '#3' or 'notes#2'")
        text = f"#{value}" if isinstance(value, int) else value.strip()
        text = f"#{text}" if text.isdigit() else text
        if not ITEM_REF.fullmatch(text):
            raise ValueError(f"answers {value!r} names no item: use 3, '#3' or 'notes#2'")
        return text

    @property
    def item(self) -> str | None:
        """The item answered as the core names it ("#3", "notes#2"), or None."""
        return None if self.answers is None else str(self.answers)

    def to_act(self) -> Act:
        """The act as the core reads it."""
        reading = None
        if self.relation is not None:
            reading = Reading(
                relation=self.relation,
                corrected=self.corrected,
                chosen=tuple(self.chosen),
                project_only=self.project_only,
                answers=self.item,
            )
        status = None
        if self.status is not None:
            status = StatusReport(
                topic=self.status.topic, text=self.status.text, until=self.status.until
            )
        return Act(
            intent=self.intent,
            params=dict(self.params),
            reading=reading,
            restore=self.restore,
            question=self.question,
            profile_field=self.profile_field,
            status=status,
        )


# A gold reading: at least one act, in the order the message does them.
GoldReading = Annotated[list[GoldAct], Field(min_length=1)]
