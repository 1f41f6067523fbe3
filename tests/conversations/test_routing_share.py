"""A project's share of a conversation is of all its turns, project-less ones included."""

from __future__ import annotations

from pathlib import Path

from pipeline.conversation_models import YOUR_STORY
from pipeline.conversations import close_conversation, fallback, get_active_conversation
from pipeline.english import ENGLISH
from pipeline.prompting import default_library
from pipeline.store import open_store, upgrade
from pipeline.store.people import create_person, create_project, get_person
from tests.conversations.helpers import talk


def test_turns_outside_any_project_count_in_the_share(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'share.db'}"
    upgrade(url)
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
        create_project(session, get_person(session, "ana"), "Kitchen remodel", "Cabinets")
    talk(store, "ana", "The oak cabinets arrive Monday.", project="Kitchen remodel")
    talk(store, "ana", "My sister visits in May.", "I started running again.", "Tea is better.")
    with store.read() as session:
        ana = get_person(session, "ana")
    open_one = get_active_conversation(store, ana.id)
    assert open_one is not None
    preview = close_conversation(
        store, ana.id, open_one.id, library=default_library(), generator=None, lexicon=ENGLISH
    )
    (draft,) = preview.memories
    # 1 of the 4 messages was in the kitchen project: not its memory
    assert draft.destination.name == YOUR_STORY
    assert preview.suggestion is not None and preview.suggestion.destination == YOUR_STORY
    store.dispose()


def test_the_fallback_share_is_of_every_turn() -> None:
    kitchen = {"Kitchen remodel": 30}
    where = fallback.routing((YOUR_STORY, "Kitchen remodel"), kitchen, "", without_project=84)
    assert where.destination == YOUR_STORY
    most = fallback.routing((YOUR_STORY, "Kitchen remodel"), kitchen, "", without_project=10)
    assert most.destination == "Kitchen remodel" and most.confidence == 0.75
    assert most.reasoning == "30 of 40 turns were in the project Kitchen remodel"
