"""What a handler did, typed: one outcome model per intent.

A handler builds its intent's outcome (`RememberOutcome(action=Action.HELD, ...)`) and turns it
into the turn's `RouteResult` with `routed()`; the operation data the turn stores and the
instruction templates read is the outcome's dump, so stored turns and prompts are unchanged.
Each model names its intent and the actions that intent may record (`ACTIONS`): an action of
another intent, or a string where an `Action` belongs, fails where the outcome is built, with
an error naming the intent and what it may record, not in a test of a template far away.

The next turn reads the previous turn's outcome back through the same model (`Model.of(turn)`,
or `outcome_of` in pipeline/intents/taxonomy.py for any intent): a stored dict it cannot read
(an older shape, an erased turn, another intent's) gives None, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from pipeline.actions import Action
from pipeline.domain import HistoryTurn, MemoryChange, RouteResult

# Keys a stored companion turn carries beside its first act's outcome (pipeline/turn_commit.py).
_STORED_BESIDE = frozenset({"also", "intent"})


class _InOrder(BaseModel):
    """A model that dumps its fields in the order they were given: the instruction templates
    show the operation data as JSON, so its key order is part of the prompt."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    _given: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        made = handler(data)
        if isinstance(made, _InOrder) and isinstance(data, Mapping):
            made._given = tuple(data)
        return made

    def dump(self) -> dict[str, Any]:
        """The fields that were set, in the order given, nested models as dicts."""
        return {name: _plain(getattr(self, name)) for name in self._order()}

    def _order(self) -> list[str]:
        given = [name for name in self._given if name in self.model_fields_set]
        return given + [n for n in type(self).model_fields if n in self.model_fields_set - {*given}]


def _plain(value: Any) -> Any:
    if isinstance(value, _InOrder):
        return value.dump()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class Item(_InOrder):
    """A stored fact or note an outcome names: its display number, text, and where it applies."""

    display_number: int
    content: str
    force: str | None = None
    where: str | None = None  # recall: "personal" or "project"


class Outcome(_InOrder):
    """Base of every intent's outcome: the action it records, one of its intent's `ACTIONS`."""

    INTENT: ClassVar[str] = ""
    ACTIONS: ClassVar[frozenset[Action]] = frozenset()

    # strict: an Action member, never its string (a stored string is read back by `read`)
    action: Action = Field(strict=True)

    @field_validator("action")
    @classmethod
    def _one_of_its_intent(cls, action: Action) -> Action:
        if action not in cls.ACTIONS:
            allowed = ", ".join(sorted(cls.ACTIONS))
            raise ValueError(
                f"{cls.INTENT or cls.__name__} cannot record the action {action.value!r}; "
                f"it records one of: {allowed} (add the action to {cls.__name__}.ACTIONS "
                "if the intent really does this)"
            )
        return action

    def routed(self, changes: Iterable[MemoryChange] = ()) -> RouteResult:
        """The handler's result: this outcome, under its intent, with the changes it decided."""
        if not self.INTENT:
            raise TypeError(
                f"{type(self).__name__} names no intent (it serves several): build the "
                "RouteResult with the intent's name and this outcome's dump()"
            )
        return RouteResult(intent=self.INTENT, operation_data=self.dump(), changes=tuple(changes))

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Self | None:
        """The outcome a stored operation data holds, or None when it is not one of this
        model's (no action, an action it never records, a field it does not know)."""
        fields = {k: v for k, v in data.items() if k not in _STORED_BESIDE}
        try:
            return cls.model_validate({**fields, "action": Action(str(data.get("action")))})
        except (ValueError, ValidationError):  # not an action at all, or not this model's
            return None

    @classmethod
    def of(cls, turn: HistoryTurn | None) -> Self | None:
        """The typed outcome of a companion turn of this model's intent, else None."""
        if turn is None or turn.intent != cls.INTENT:
            return None
        return cls.read(turn.operation_data)


Problem = Literal["needs_project", "no_personal_engagement", "no_personal_fact", "no_knowledge"]


class Refused(BaseModel):
    """A turn whose handler could do nothing: what was missing (the reply says what to do)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    error: Problem

    def routed(self, intent: str) -> RouteResult:
        """The handler's result: nothing done, under the intent that could not act."""
        return RouteResult(intent=intent, operation_data=self.model_dump())


class ConversationOutcome(Outcome):
    """general_conversation: nothing asked of memory, or an offer turned down or kept to the
    project, a status noted, a question which pending item is meant, a check-in. Several
    handlers answer as conversation (pipeline/intents/remember.py, acts.py, heartbeat.py)."""

    INTENT: ClassVar[str] = "general_conversation"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset(
        {
            Action.NONE,
            Action.REJECTED,
            Action.KEPT_IN_PROJECT,
            Action.STATUS_NOTED,
            Action.WHICH_ITEM,
            Action.HEARTBEAT,
        }
    )

    retracted_fact: str | None = None
    assertion_display_number: int | None = None
    knowledge: str | None = None
    retracted_personal_number: int | None = None
    topic: str | None = None
    text: str | None = None
    ask: str | None = None
    items: list[Item] = Field(default_factory=list)
    follow_up: str | None = None


class RetractionOutcome(Outcome):
    """What forget_about_me and retract_knowledge share: a question whether to retract the one
    fact matched (answered on the next turn), the retraction, several candidates, nothing
    matched, the fact kept; and putting back what was retracted (pipeline/intents/restore.py)."""

    ACTIONS: ClassVar[frozenset[Action]] = frozenset(
        {
            Action.CONFIRM_RETRACTION,
            Action.RETRACTED,
            Action.KEPT,
            Action.NO_MATCH,
            Action.AMBIGUOUS,
            Action.RESTORED,
            Action.RESTORE_UNCLEAR,
            Action.RESTORE_NO_MATCH,
        }
    )

    matched_fact: str | None = None
    matched_assertion_id: int | None = None
    assertion_display_number: int | None = None
    asked_again: bool = False
    item: Item | None = None
    candidates: list[Item] = Field(default_factory=list)
