"""The one orchestration function: a turn's phases in order (pipeline/turn_phases.py) — load,
read, decide, respond, commit, compact — over one typed state."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pipeline.assemble import AssembledPrompt
from pipeline.checkpoint import ConversationState
from pipeline.clock import utcnow
from pipeline.compaction import Compacted
from pipeline.config import MAX_MESSAGE_CHARS
from pipeline.domain import MemoryNote, Reply, RouteResult, Turn
from pipeline.errors import InvalidMessage
from pipeline.on_demand_recall import Recalled
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers.base import Providers
from pipeline.reading import ClassifiedIntent
from pipeline.settings import Settings, settings
from pipeline.store import Store
from pipeline.store.status import StatusNote
from pipeline.text import check_text
from pipeline.turn_commit import commit
from pipeline.turn_load import resolve
from pipeline.turn_phases import compact, decide, load, read, respond
from pipeline.turn_state import TurnInput, TurnState

COMPANION_NAME = "Sage"


@dataclass(frozen=True)
class TurnOutcome:
    """Everything one turn produced."""

    operator_turn: Turn
    companion_turn: Turn
    classified: ClassifiedIntent
    route: RouteResult
    prompt: AssembledPrompt
    reply: Reply
    personal_memory: str
    compacted: Compacted | None = None
    status_notes: tuple[StatusNote, ...] = ()  # the notes this turn wrote
    checkpoint: ConversationState | None = None  # the conversation's state after this turn
    recalled: Recalled | None = None  # what an on-demand recall added to the prompt, if it ran
    # the conversation memories and open threads the classifier was shown (`converse explain`)
    shown: tuple[MemoryNote, ...] = ()


def check_message(message: str) -> str:
    """The message, or an InvalidMessage naming what is wrong with it."""
    if not message or not message.strip():
        raise InvalidMessage("the message is empty", "type something to say")
    if len(message) > MAX_MESSAGE_CHARS:
        raise InvalidMessage(
            f"the message is {len(message):,} characters; the limit is {MAX_MESSAGE_CHARS:,}",
            "split it into shorter messages",
        )
    return check_text(message).strip()


def converse(
    store: Store,
    *,
    person: str,
    message: str,
    providers: Providers,
    project: str | None = None,
    library: PromptLibrary | None = None,
    channel: str = "cli",
    companion_name: str = COMPANION_NAME,
    now: datetime | None = None,
    answers: Sequence[int] = (),
    turn_settings: Settings | None = None,
) -> TurnOutcome:
    """Run one turn end to end and persist it; bad input raises before anything is stored.

    The turn is its phases (pipeline/turn_phases.py) over one state, with the person's lock
    held from the load to the commit. `providers` is the declared bundle, so chat, the turn
    queue, MCP and evals run the same pipeline. `answers` are the inbox messages this turn
    answers (pipeline/turn_queue.py), deleted with it. `turn_settings` replaces the CONVERSE_*
    settings (an eval suite's own); a bad one is refused before anything is stored.
    """
    text = check_message(message)
    started = time.perf_counter()
    chosen = turn_settings or settings()
    found_person, found_project = resolve(store, person, project)
    with store.person_lock(found_person.id):
        given = TurnInput(
            store=store,
            person=found_person,
            project=found_project,
            text=text,
            providers=providers,
            library=library or default_library(),
            settings=chosen,
            channel=channel,
            companion_name=companion_name,
            moment=now or utcnow(),
            answers=tuple(answers),
            started=started,
        )
        state = TurnState(given)
        for phase in (load, read, decide, respond, commit, compact):
            state = phase(state)
    return outcome(state)


def outcome(state: TurnState) -> TurnOutcome:
    """What the caller is told of a finished turn."""
    assert state.turns is not None and state.stored is not None and state.reply is not None
    assert state.prompt is not None
    return TurnOutcome(
        operator_turn=state.turns[0],
        companion_turn=state.turns[1],
        classified=state.reading,
        route=state.stored,
        prompt=state.prompt,
        reply=state.reply,
        personal_memory=state.ready.personal_memory,
        compacted=state.compacted,
        status_notes=state.notes,
        checkpoint=state.checkpoint,
        recalled=state.recalled,
        shown=state.shown,
    )
