"""The conversation lifecycle's states and the moves between them (docs/conversations.md).

    active --close--> ready_to_close --confirm--> compressing --(done)--> archived
                            |  ^
                    resume  v  |  close
                          active

At most one conversation per person is open (not archived): the store's partial unique index
holds it even against two processes. `paused` is a flag on an active conversation that keeps
the companion from remarking on a long silence. Every function is a plain call on a Store and
ids returning pydantic models, so a command, a test or an MCP tool can call it directly.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.conversation_models import Conversation, ConversationStatus
from pipeline.errors import IllegalTransition
from pipeline.store import Store
from pipeline.store import conversations as repo
from pipeline.store.conversation_rows import ConversationRow
from pipeline.store.memories import drop_drafts

S = ConversationStatus
MOVES: dict[ConversationStatus, frozenset[ConversationStatus]] = {
    S.ACTIVE: frozenset({S.READY_TO_CLOSE}),
    S.READY_TO_CLOSE: frozenset({S.ACTIVE, S.COMPRESSING}),
    # Back to ready_to_close only when confirming fails midway (nothing is lost).
    S.COMPRESSING: frozenset({S.ARCHIVED, S.READY_TO_CLOSE}),
    S.ARCHIVED: frozenset(),
}
_HINTS = {
    S.ACTIVE: "close it first with `converse conversation close --person NAME`",
    S.READY_TO_CLOSE: "review it with `converse conversation review --person NAME`, or resume it",
    S.COMPRESSING: "it is being archived; wait for it to finish",
    S.ARCHIVED: "it is archived for good; a new message starts a new conversation",
}


def move(row: ConversationRow, to: ConversationStatus, now: datetime) -> None:
    """Change a conversation's state; IllegalTransition names where it is and what to do."""
    current = ConversationStatus(row.status)
    if to not in MOVES[current]:
        raise IllegalTransition(
            f"conversation {row.id} is {current.value}; it cannot become {to.value}",
            _HINTS[current],
        )
    row.status = to.value
    if to is S.READY_TO_CLOSE and current is S.ACTIVE:
        row.closed_at = now
        row.is_paused = False
        row.paused_at = None
    elif to is S.ACTIVE:
        row.closed_at = None
    elif to is S.ARCHIVED:
        row.archived_at = now


def get_active_conversation(store: Store, person_id: int) -> Conversation | None:
    """The person's open conversation (active, ready to close or compressing), or None."""
    with store.read() as session:
        return repo.open_conversation(session, person_id)


def start_conversation(store: Store, person_id: int, now: datetime | None = None) -> Conversation:
    """A new active conversation; ConversationConflict while another is open."""
    with store.write() as session:
        return repo.start(session, person_id, now or utcnow())


def open_conversation(store: Store, person_id: int, now: datetime | None = None) -> Conversation:
    """What opening the companion does: the open conversation if there is one, else a new one."""
    with store.write() as session:
        found = repo.open_conversation(session, person_id)
        return found if found is not None else repo.start(session, person_id, now or utcnow())


def get_conversation(store: Store, person_id: int, conversation_id: int) -> Conversation:
    """One of the person's conversations."""
    with store.read() as session:
        return repo.get(session, person_id, conversation_id)


def list_conversations(store: Store, person_id: int, limit: int = 50) -> list[Conversation]:
    """The person's conversations, newest first."""
    with store.read() as session:
        return repo.list_for(session, person_id, limit)


def get_conversation_archive(
    store: Store, person_id: int, conversation_id: int
) -> list[tuple[int, str, str, datetime]]:
    """The conversation's turns, oldest first (turn id, role, content, when)."""
    with store.read() as session:
        repo.get_row(session, person_id, conversation_id)
        return repo.transcript(session, conversation_id)


def set_paused(
    store: Store, person_id: int, conversation_id: int, paused: bool, now: datetime | None = None
) -> Conversation:
    """Pause (or unpause) an active conversation: paused, its silences are not remarked on."""
    with store.write() as session:
        row = repo.get_row(session, person_id, conversation_id)
        if row.status != S.ACTIVE.value:
            raise IllegalTransition(
                f"conversation {row.id} is {row.status}; only an active one can be "
                f"{'paused' if paused else 'unpaused'}",
                _HINTS[ConversationStatus(row.status)],
            )
        row.is_paused = paused
        row.paused_at = (now or utcnow()) if paused else None
        session.flush()
        return repo.snapshot(row)


def resume_conversation(
    store: Store, person_id: int, conversation_id: int, now: datetime | None = None
) -> Conversation:
    """Cancel closing: ready_to_close back to active; the draft memories are dropped."""
    with store.write() as session:
        row = repo.get_row(session, person_id, conversation_id)
        move(row, S.ACTIVE, now or utcnow())
        drop_drafts(session, person_id, conversation_id)
        session.flush()
        return repo.snapshot(row)


IDLE_INVITATION = (
    "We've been quiet for a while. Is this thread resolved, or are you still sitting with it?"
)


def idle_observation(
    store: Store, person_id: int, now: datetime, quiet_after: timedelta
) -> str | None:
    """The gentle remark on a long silence, or None: only for an active conversation that is
    not paused and has been quiet longer than `quiet_after`."""
    with store.read() as session:
        found = repo.open_conversation(session, person_id)
    if found is None or found.status is not S.ACTIVE or found.is_paused:
        return None
    last = found.last_message_at or found.started_at
    return IDLE_INVITATION if now - as_utc(last) > quiet_after else None


def attach_turns(session: Session, person_id: int, turn_ids: list[int], now: datetime) -> int:
    """In a turn's write transaction: link its turns to the person's open conversation,
    starting one when there is none. A message to a conversation waiting for review resumes
    it (talking again cancels the closing). Returns the conversation's id."""
    active = repo.link_to_active(session, person_id, turn_ids, now)
    if active is not None:
        return active
    found = repo.open_id(session, person_id)
    if found is None:
        conversation_id = repo.start(session, person_id, now).id
    else:
        conversation_id, status = found
        if status is S.READY_TO_CLOSE:
            move(repo.get_row(session, person_id, conversation_id), S.ACTIVE, now)
            drop_drafts(session, person_id, conversation_id)
            session.flush()
    repo.link_turns(session, conversation_id, turn_ids, now)
    return conversation_id
