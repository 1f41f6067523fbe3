"""What the pipeline keeps of each conversation between turns (a checkpoint), and how a turn
advances it. Stored by pipeline/store/checkpoints.py in the transaction that stores the turn,
one row per person and conversation, so a process that restarts reads exactly the state the
last stored turn left, and a turn lost to a crash leaves the previous state whole."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.actions import Action
from pipeline.clock import utcnow
from pipeline.domain import RouteResult
from pipeline.store.checkpoints import load_checkpoint, save_checkpoint
from pipeline.store.events import Event, conversation_key

# The companion's last turn asked the person to confirm something: what, by handler action.
_AWAITING: dict[Action, Literal["confirm_fact", "confirm_retraction"]] = {
    Action.HELD: "confirm_fact",
    Action.REFINED: "confirm_fact",
    Action.CONFIRM_RETRACTION: "confirm_retraction",
}


class ConversationState(BaseModel):
    """The state of one conversation after its last stored turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = 1
    turns: int = Field(0, ge=0)  # turns stored in this conversation since checkpoints began
    last_operator_turn_id: int | None = None
    last_companion_turn_id: int | None = None
    last_intent: str | None = None
    last_action: str | None = None
    # What the companion's last turn waits for the person to confirm, and which memory.
    awaiting: Literal["confirm_fact", "confirm_retraction"] | None = None
    awaiting_number: int | None = None
    awaiting_memory_id: int | None = None
    # The turn after which the conversation's history started (its newest compaction).
    history_after_turn_id: int = Field(0, ge=0)
    # The personal memory revision this conversation last saw (pipeline/memory/delta.py).
    memory_revision: int = Field(0, ge=0)
    updated_at: datetime | None = None
    # Set when a stored state could not be read and this one started afresh.
    recovered: bool = False


def state_from(stored: dict[str, Any] | None) -> ConversationState:
    """The state a stored checkpoint holds; a fresh one before the first turn. A checkpoint
    that does not validate (written by a newer version, or damaged) is not trusted: the
    conversation goes on from a fresh state marked `recovered`, and the next turn replaces
    it (the turns themselves are in the store, untouched)."""
    if stored is None:
        return ConversationState()
    try:
        return ConversationState.model_validate(stored)
    except ValidationError:
        return ConversationState(recovered=True)


def advanced(
    previous: ConversationState,
    *,
    operator_turn_id: int,
    companion_turn_id: int,
    result: RouteResult,
    events: Sequence[Event],
    history_after_turn_id: int,
    memory_revision: int,
    at: datetime,
) -> ConversationState:
    """The state after one more stored turn."""
    data = result.operation_data
    action = data.get("action") if isinstance(data.get("action"), str) else None
    awaiting = _AWAITING.get(Action(action)) if action in _AWAITING else None
    number = data.get("assertion_display_number")
    matched = data.get("matched_assertion_id")
    written = [e.memory_id for e in events if e.op in ("create", "update") and e.memory_id]
    memory_id = matched if isinstance(matched, int) else (written[-1] if written else None)
    return ConversationState(
        turns=previous.turns + 1,
        last_operator_turn_id=operator_turn_id,
        last_companion_turn_id=companion_turn_id,
        last_intent=result.intent,
        last_action=action,
        awaiting=awaiting,
        awaiting_number=number if awaiting and isinstance(number, int) else None,
        awaiting_memory_id=memory_id if awaiting else None,
        history_after_turn_id=history_after_turn_id,
        memory_revision=max(memory_revision, previous.memory_revision),
        updated_at=at,
    )


def load_state(
    session: Session | Connection, person_id: int, engagement_id: int | None
) -> ConversationState:
    """The stored state of a person's conversation (in a project, or outside any)."""
    return state_from(load_checkpoint(session, person_id, conversation_key(engagement_id)))


def save_state(
    session: Session | Connection,
    person_id: int,
    engagement_id: int | None,
    state: ConversationState,
) -> None:
    """Upsert the conversation's state in the caller's transaction."""
    at = state.updated_at or utcnow()
    key = conversation_key(engagement_id)
    save_checkpoint(session, person_id, key, state.model_dump(mode="json"), at)
