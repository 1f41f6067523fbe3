"""The commit phase of a turn: the decision applied (or decided again on what is stored now)
and both turns stored, with the notes, links, events and checkpoint, in one transaction."""

from __future__ import annotations

import shlex
import time
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from pipeline.checkpoint import advanced, save_state
from pipeline.conversations.lifecycle import attach_turns
from pipeline.conversations.recall import record_references
from pipeline.domain import Role, RouteResult, Turn
from pipeline.errors import AlreadyAnswered
from pipeline.links import carried_assertions, stated_before
from pipeline.reading import ClassifiedIntent
from pipeline.store import inbox
from pipeline.store.assertions import touch
from pipeline.store.erasure import link_turns
from pipeline.store.events import record_events
from pipeline.store.lifecycle import ACCESS_RESOLUTION
from pipeline.store.turns import NewTurn, add_turns, last_turn_ids
from pipeline.turn_apply import apply_or_redecide
from pipeline.turn_events import turn_events
from pipeline.turn_phases import decided
from pipeline.turn_state import TurnState


def commit(state: TurnState) -> TurnState:
    """Apply the decision (or decide again on what is stored now) and store both turns, the
    notes the turn wrote, its links, events and the conversation's checkpoint, in one
    transaction. Inbox messages it answers are deleted there; if another process answered them
    first, nothing of this turn is stored (AlreadyAnswered)."""
    given, loaded = state.given, state.ready
    assert state.decision is not None and state.result is not None and state.tools is not None
    with given.store.write() as session:
        if given.answers and inbox.answered(session, given.answers) != len(given.answers):
            raise AlreadyAnswered(
                "another process answered this message first",
                "nothing was stored twice; read the conversation with "
                f"`converse conversation show --person {shlex.quote(given.person.name)}`",
            )
        stored, decision, redecided, seen = apply_or_redecide(
            session,
            lambda s: decided(state, s),
            state.decision,
            state.result,
            loaded.revisions,
            state.engagement_id,
        )
        loaded.session.record(session, given.person.id, given.moment)
        stated = _stating_turns(session, stored, state)
        turns = add_turns(session, _new_turns(state, stored, redecided))
        written = state.tools.persist(session, turns[0].id, state.replied.provider)
        _link(session, state, stored, stated, turns)
        events = turn_events(
            session,
            person_id=given.person.id,
            engagement_id=state.engagement_id,
            classified=state.reading,
            result=stored,
            reads=decision.reads,
        )
        record_events(session, events, given.moment)
        checkpoint = advanced(
            loaded.checkpoint,
            operator_turn_id=turns[0].id,
            companion_turn_id=turns[1].id,
            result=stored,
            events=events,
            history_after_turn_id=loaded.history_after,
            memory_revision=seen,
            at=given.moment,
        )
        save_state(session, given.person.id, state.engagement_id, checkpoint)
    return replace(
        state,
        stored=stored,
        turns=(turns[0], turns[1]),
        notes=tuple(written),
        checkpoint=checkpoint,
    )


def _link(
    session: Session, state: TurnState, stored: RouteResult, stated: list[int], turns: list[Turn]
) -> None:
    """Both turns join the person's open conversation (docs/conversations.md), the memories
    shown to the classifier are referenced, the turns that state a fact are linked to it, and
    what the prompt showed and the turn used is marked used — one statement for all of them,
    none when all were marked within the resolution already (usually: what the last turn
    showed); the lifecycle sweep spares what is used."""
    given, loaded = state.given, state.ready
    operator_id, companion_id = turns[0].id, turns[1].id
    attach_turns(session, given.person.id, [operator_id, companion_id], given.moment)
    record_references(session, operator_id, state.shown, given.moment)
    carried = carried_assertions(
        session, stored, loaded.person.personal_engagement_id, state.engagement_id
    )
    link_turns(session, [*stated, operator_id, companion_id], carried)
    touch(session, {*loaded.unmarked, *carried}, given.moment, ACCESS_RESOLUTION)


def _new_turns(state: TurnState, stored: RouteResult, redecided: bool) -> list[NewTurn]:
    """The person's turn and the companion's, with what produced each."""
    given, classified, reply = state.given, state.reading, state.replied
    assert state.prompt is not None and state.tools is not None
    meta = classifier_meta(classified)
    companion_meta: dict[str, Any] = {
        "classifier": meta,
        "responder": {
            "provider": reply.provider,
            "model": reply.model,
            "usage": reply.usage.model_dump(),
            "error": state.reply_error,
            **({"truncated": True} if reply.truncated else {}),
            **({"tools": state.tools.meta()} if state.tools.calls else {}),
        },
        **({"recall": state.recalled.meta()} if state.recalled else {}),
        # Another process changed this person's memory during the model call, so the turn
        # was decided again on what is stored now.
        **({"redecided": True} if redecided else {}),
        **({"extraction": found} if (found := _extraction_meta(state)) else {}),
        "elapsed_ms": round((time.perf_counter() - given.started) * 1000, 3),
    }
    return [
        NewTurn(
            given.person.id,
            state.engagement_id,
            Role.OPERATOR,
            given.text,
            classified.intent,
            operation_data={"params": classified.params},
            channel=given.channel,
            meta=meta,
        ),
        NewTurn(
            given.person.id,
            state.engagement_id,
            Role.COMPANION,
            reply.text,
            stored.intent,
            operation_data=stored_data(stored),
            prompt_refs=classified.prompt_refs + state.prompt.refs,
            channel=given.channel,
            meta=companion_meta,
        ),
    ]


def _extraction_meta(state: TurnState) -> dict[str, object] | None:
    return state.extraction.meta() if state.extraction is not None else None


def stored_data(result: RouteResult) -> dict[str, Any]:
    """What the companion turn keeps of the decision: the first act's operation data, and the
    later acts' under `also` (the next turns read what they left pending)."""
    if not result.also:
        return result.operation_data
    later = [{"intent": r.intent, **r.operation_data} for r in result.also]
    return {**result.operation_data, "also": later}


def _stating_turns(session: Session, stored: RouteResult, state: TurnState) -> list[int]:
    """The earlier turns that first stated a fact this turn holds (a cross-promotion offer)."""
    if not stated_before(stored, state.prior_companion):
        return []
    return last_turn_ids(session, state.given.person.id, state.engagement_id, 2)


def classifier_meta(classified: ClassifiedIntent) -> dict[str, Any]:
    """What a turn records of the classification that produced it."""
    return {
        "provider": classified.provider,
        "model": classified.model,
        "confidence": classified.confidence,
        "error": classified.error,
        "usage": classified.usage.model_dump(),
    }
