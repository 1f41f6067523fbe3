"""The lifecycle's states and moves: one open conversation per person, held by the store
even against a race; illegal moves refused with a clear error; pausing; turns linked."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from pipeline.clock import utcnow
from pipeline.conversation_models import ConversationStatus
from pipeline.conversations import (
    IDLE_INVITATION,
    close_conversation,
    confirm_conversation,
    get_active_conversation,
    get_conversation_archive,
    idle_observation,
    list_conversations,
    open_conversation,
    resume_conversation,
    set_paused,
    start_conversation,
)
from pipeline.english import ENGLISH
from pipeline.errors import ConversationConflict, IllegalTransition, NotFound
from pipeline.prompting import default_library
from pipeline.store import Store, open_store
from pipeline.store.conversation_rows import ConversationRow
from tests.conversations.helpers import talk

S = ConversationStatus


def _close(store: Store, person_id: int, conversation_id: int) -> None:
    close_conversation(
        store,
        person_id,
        conversation_id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )


def test_opening_resumes_the_open_conversation_and_starting_another_is_refused(store, make_person):
    person, _ = make_person(store)
    first = open_conversation(store, person.id)
    assert first.status is S.ACTIVE
    assert open_conversation(store, person.id).id == first.id
    with pytest.raises(ConversationConflict, match="already has an open conversation"):
        start_conversation(store, person.id)


def test_the_store_refuses_a_second_open_conversation_written_directly(store, make_person):
    person, _ = make_person(store)
    start_conversation(store, person.id)
    with pytest.raises(IntegrityError), store.write() as session:
        session.execute(
            insert(ConversationRow).values(
                person_id=person.id, status="ready_to_close", started_at=utcnow(), message_count=0
            )
        )


def test_two_starts_racing_from_two_connections_leave_one_conversation(db_url, store, make_person):
    person, _ = make_person(store)
    stores = [open_store(db_url), open_store(db_url)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def start(own: Store) -> None:
        barrier.wait()
        try:
            start_conversation(own, person.id)
            outcomes.append("started")
        except ConversationConflict:
            outcomes.append("refused")

    threads = [threading.Thread(target=start, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.dispose()
    assert sorted(outcomes) == ["refused", "started"]
    assert len(list_conversations(store, person.id)) == 1


def test_turns_are_linked_to_the_open_conversation(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "The tomatoes are ripening", "I should pick them on Sunday")
    active = get_active_conversation(store, person.id)
    assert active is not None and active.message_count == 4
    archive = get_conversation_archive(store, person.id, active.id)
    assert [role for _, role, _, _ in archive] == ["operator", "companion"] * 2
    assert archive[0][2] == "The tomatoes are ripening"


def test_the_full_cycle_and_a_new_conversation_after_archival(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "I decided to plant garlic in October")
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    _close(store, person.id, conversation.id)
    assert get_active_conversation(store, person.id).status is S.READY_TO_CLOSE  # type: ignore[union-attr]
    resumed = resume_conversation(store, person.id, conversation.id)
    assert resumed.status is S.ACTIVE and resumed.closed_at is None
    _close(store, person.id, conversation.id)
    confirm_conversation(store, person.id, conversation.id, embedder=None)
    archived = list_conversations(store, person.id)[0]
    assert archived.status is S.ARCHIVED and archived.archived_at is not None
    assert get_active_conversation(store, person.id) is None
    talk(store, "ana", "Hello again")
    fresh = get_active_conversation(store, person.id)
    assert fresh is not None and fresh.id != conversation.id and fresh.message_count == 2


def test_illegal_moves_are_clear_errors(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "The beans are up")
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    with pytest.raises(IllegalTransition, match=r"is active; it cannot become active"):
        resume_conversation(store, person.id, conversation.id)
    with pytest.raises(IllegalTransition, match=r"is active; it cannot become compressing"):
        confirm_conversation(store, person.id, conversation.id, embedder=None)
    _close(store, person.id, conversation.id)
    with pytest.raises(IllegalTransition, match="only an active one can be paused"):
        set_paused(store, person.id, conversation.id, True)
    confirm_conversation(store, person.id, conversation.id, embedder=None)
    with pytest.raises(IllegalTransition, match="is archived; it cannot become active") as exc:
        resume_conversation(store, person.id, conversation.id)
    assert "a new message starts a new conversation" in str(exc.value)


def test_an_empty_conversation_cannot_be_closed(store, make_person):
    person, _ = make_person(store)
    conversation = open_conversation(store, person.id)
    with pytest.raises(IllegalTransition, match="has no turns"):
        _close(store, person.id, conversation.id)
    assert get_active_conversation(store, person.id).status is S.ACTIVE  # type: ignore[union-attr]


def test_a_message_to_a_conversation_in_review_resumes_it(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "I need to buy seed potatoes")
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    _close(store, person.id, conversation.id)
    talk(store, "ana", "Oh, and the shed door is broken")
    again = get_active_conversation(store, person.id)
    assert again is not None and again.id == conversation.id and again.status is S.ACTIVE
    assert again.message_count == 4


def test_paused_suppresses_the_idle_observation(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "Watering done")
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    later = utcnow() + timedelta(hours=5)
    quiet = timedelta(hours=2)
    assert idle_observation(store, person.id, utcnow(), quiet) is None  # not quiet long enough
    assert idle_observation(store, person.id, later, quiet) == IDLE_INVITATION
    paused = set_paused(store, person.id, conversation.id, True)
    assert paused.is_paused and paused.paused_at is not None
    assert idle_observation(store, person.id, later, quiet) is None
    set_paused(store, person.id, conversation.id, False)
    assert idle_observation(store, person.id, later, quiet) == IDLE_INVITATION


def test_one_persons_conversation_is_not_anothers(store, make_person):
    ana, _ = make_person(store)
    bob, _ = make_person(store, "bob", "Boat")
    talk(store, "ana", "My passport expires in May")
    theirs = get_active_conversation(store, ana.id)
    assert theirs is not None
    assert get_active_conversation(store, bob.id) is None
    with pytest.raises(NotFound, match=f"no conversation {theirs.id} for this person"):
        get_conversation_archive(store, bob.id, theirs.id)
    with pytest.raises(NotFound):
        _close(store, bob.id, theirs.id)
    with pytest.raises(NotFound):
        set_paused(store, bob.id, theirs.id, True)
    # Each person has their own open conversation at once.
    assert open_conversation(store, bob.id).person_id == bob.id


def test_a_conversation_being_confirmed_cannot_be_closed_again(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "I decided to sow carrots")
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    _close(store, person.id, conversation.id)
    with store.write() as session:
        session.get_one(ConversationRow, conversation.id).status = "compressing"
    with pytest.raises(IllegalTransition, match="is compressing; it cannot be closed again"):
        _close(store, person.id, conversation.id)
