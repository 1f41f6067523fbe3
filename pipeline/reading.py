"""A message as the classifier read it: its acts (intent, parameters, how each answers what is
pending, status reports) and the classification that carries them (docs/intents.md, "Acts").
The core acts on these types alone; it never re-reads the message's wording."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator, model_validator

from pipeline.domain import Frozen, ProfileField, PromptRef, Usage


class Relation(StrEnum):
    """How a message answers what the previous companion turn left pending."""

    CONFIRM = "confirm"  # yes to the offer, the retraction or the candidate asked about
    REJECT = "reject"  # no, outright: drop the offer, keep the matched fact
    CORRECT = "correct"  # the offer, with something changed (`Reading.corrected`)
    CHOOSE = "choose"  # some of the items offered or listed (`Reading.chosen`)
    UNRELATED = "unrelated"  # something else: every pending offer stays as it is


class Reading(Frozen):
    """The message's relation to what was pending, as the classifier read it. The core acts
    on these fields alone; it never re-reads the message's wording."""

    relation: Relation
    # CORRECT: the corrected fact (or, for a retraction, description) in the form memory stores
    corrected: str = ""
    # CHOOSE: the display numbers of the items meant, among those the companion listed
    chosen: tuple[int, ...] = ()
    # "No, just this project": keep the offered fact as the project's note, not personal
    project_only: bool = False
    # Which pending item the message answers, by display number: "#3" (a personal fact) or
    # "notes#2" (a project note); None: the item the previous companion turn left pending
    answers: str | None = None

    @field_validator("answers", mode="before")
    @classmethod
    def _item(cls, value: object) -> object:
        text = str(value).strip() if isinstance(value, int | str) and value is not True else ""
        text = f"#{text}" if text.isdigit() else text
        if value is not None and not ITEM_REF.fullmatch(text):
            raise ValueError(f"answers {value!r} names no item: use 3, '#3' or 'notes#2'")
        return text or None

    def answered_number(self, kind: str = "#") -> int | None:
        """The display number `answers` names for `kind` ("#": a personal fact, "notes#": a
        project note); None when it names none, or an item of the other kind."""
        rest = (self.answers or "").removeprefix(kind)
        return int(rest) if rest.isdigit() else None


# "#3": personal fact 3; "notes#2": project note 2 (the README's numbering, in every reply).
ITEM_REF = re.compile(r"(?:notes)?#[1-9][0-9]{0,8}")


class StatusReport(Frozen):
    """A status report read from a message: where an ongoing thing stands ("the car is at the
    shop until Friday"). The core writes it as a status note (pipeline/memory/status.py)."""

    topic: str = Field(min_length=1)
    text: str = Field(min_length=1)
    until: str = ""

    @property
    def noted(self) -> str:
        """The note's text, with the time it holds until when the text does not say it."""
        if self.until and self.until.casefold() not in self.text.casefold():
            return f"{self.text} (until {self.until})"
        return self.text


class Act(Frozen):
    """One thing a message does: its intent and parameters, whether it asks, and how it
    answers what is pending. A message may do several ("yes — and I've a bad knee")."""

    intent: str
    params: dict[str, str] = Field(default_factory=dict)
    reading: Reading | None = None
    restore: bool = False
    question: bool = False
    profile_field: ProfileField | None = None
    status: StatusReport | None = None


class ClassifiedIntent(Frozen):
    """What the classifier decided the operator wants."""

    intent: str
    params: dict[str, str] = Field(default_factory=dict)
    # None when nothing was pending, or the provider's answer carries no reading (an older
    # classifier prompt version; docs/intents.md, "Readings")
    reading: Reading | None = None
    # The message asks to put back something retracted ("put #2 back")
    restore: bool = False
    # The message asks something: it is answered, and never stored as a fact
    question: bool = False
    # The profile field the stated fact changes (NONE: none of them); None when the answer
    # does not say, and the fact is then read by the bundle's lexicon (labelled fallback)
    profile_field: ProfileField | None = None
    confidence: float | None = None
    error: str | None = None
    provider: str = ""
    model: str = ""
    prompt_refs: tuple[PromptRef, ...] = ()
    usage: Usage = Usage()
    # Every act of the message, in order; the fields above are the first's (see `all_acts`).
    acts: tuple[Act, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _first_act(cls, data: Any) -> Any:
        """Given acts and no intent, the first act's fields are the classification's."""
        if isinstance(data, dict) and data.get("acts") and "intent" not in data:
            first = data["acts"][0]
            first = first if isinstance(first, Act) else Act.model_validate(first)
            data = {**data, **{name: getattr(first, name) for name in _ACT_FIELDS}}
        return data

    def all_acts(self) -> tuple[Act, ...]:
        """The message's acts: those read, or the one act the fields above describe."""
        if self.acts:
            return self.acts
        return (Act(**{name: getattr(self, name) for name in _ACT_FIELDS}),)

    def for_act(self, act: Act) -> ClassifiedIntent:
        """This classification narrowed to one of its acts (what a handler decides on)."""
        return self.model_copy(
            update={**{name: getattr(act, name) for name in _ACT_FIELDS}, "acts": (act,)}
        )

    @property
    def status(self) -> tuple[StatusReport, ...]:
        """The status reports among the acts."""
        return tuple(act.status for act in self.acts if act.status is not None)


_ACT_FIELDS = ("intent", "params", "reading", "restore", "question", "profile_field")
