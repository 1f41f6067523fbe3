"""What a turn reads before its message is classified: the person and project, the prompt's
memory, history and notes, the conversation's checkpoint, and the memory revisions the turn's
decision is checked against when it is applied (pipeline/converse.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pipeline.checkpoint import ConversationState, state_from
from pipeline.config import HISTORY_CAP
from pipeline.context import EngagementContext, load_engagement_context
from pipeline.domain import Engagement, HistoryTurn, Person
from pipeline.memory.block import personal_memory
from pipeline.memory.delta import with_delta
from pipeline.memory.session import SessionState, session_state
from pipeline.memory.status import shown_notes
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.lifecycle import ACCESS_RESOLUTION
from pipeline.store.people import get_person, get_project
from pipeline.store.turn_state import read_turn_state
from pipeline.store.turns import recent_history


@dataclass(frozen=True)
class Loaded:
    """What one turn read before its message was classified."""

    person: Person
    project: Engagement | None
    context: EngagementContext | None
    personal_memory: str
    history: tuple[HistoryTurn, ...]
    session: SessionState
    summary: str  # the newest compaction's summary of the turns before `history`
    # The assertions the block shows: marked used when the turn is stored.
    in_block: tuple[int, ...] = ()
    # What the prompt shows that was not marked used within ACCESS_RESOLUTION: the turn marks
    # these (the others the marking statement would leave alone).
    unmarked: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()  # the person's status notes, as the prompt shows them
    # as the last stored turn left it
    checkpoint: ConversationState = field(default_factory=ConversationState)
    history_after: int = 0
    # personal memory's and the project's revisions, read before anything the turn decides on
    revisions: tuple[int, ...] = (0, 0)


def resolve(
    store: Store, person_name: str, project_name: str | None
) -> tuple[Person, Engagement | None]:
    """The person and project named; NotFound names what is missing."""

    def lookup() -> tuple[Person, Engagement | None]:
        with store.read() as session:
            person = get_person(session, person_name)
            project = get_project(session, person, project_name) if project_name else None
        return person, project

    # Persons and projects are never renamed or deleted, so a found pair can be cached;
    # NotFound is raised by lookup() and never cached.
    return store.memo(("person+project", person_name, project_name), lookup)


def load_turn(
    store: Store, person: Person, project: Engagement | None, now: datetime, settings: Settings
) -> Loaded:
    """Everything the turn reads before classifying, on one connection."""
    engagement_id = project.id if project else None
    personal_id = person.personal_engagement_id
    with store.reading() as session:
        # First: the revisions the decision is checked against are then no newer than what
        # the reads below see (a write in between makes the turn decide again, never miss it).
        found = read_turn_state(session, person.id, engagement_id, personal_id)
        compaction, revisions = found.compaction, found.revisions
        context = load_engagement_context(session, project) if project else None
        memory = ""
        shown: list[int] = []
        marked_after = now - ACCESS_RESOLUTION
        unmarked = context.unmarked(marked_after) if context else []
        if project is not None and personal_id is not None:
            block = personal_memory(session, personal_id, now, marked_after)
            memory, shown = block.text, block.shown
            unmarked += block.unmarked
        after = compaction.upto_turn_id if compaction else 0
        history = recent_history(session, person.id, engagement_id, HISTORY_CAP, after_id=after)
        state = session_state(session, person.id, personal_id, found.latest_session, now, settings)
        notes = shown_notes(session, person.id, now)
        checkpoint = state_from(found.checkpoint)
        if project is not None and personal_id is not None and checkpoint.turns:
            # what changed since this conversation's last turn comes first
            memory = with_delta(
                session, personal_id, checkpoint.memory_revision, memory, revisions[0]
            )
    summary = compaction.summary if compaction else ""
    return Loaded(
        person,
        project,
        context,
        memory,
        tuple(history),
        state,
        summary,
        in_block=tuple(shown),
        unmarked=tuple(unmarked),
        notes=tuple(notes),
        checkpoint=checkpoint,
        history_after=after,
        revisions=revisions,
    )
