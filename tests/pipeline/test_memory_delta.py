"""The memory delta header (pipeline/memory/delta.py): a project turn's memory context begins
with at most 3 bullets of what changed in personal memory since the revision its conversation
last saw; the revision increments atomically; nothing retracted or erased comes back through
it, and one person's changes never reach another's header (docs/memory.md, "Memory delta")."""

from __future__ import annotations

import threading

from sqlalchemy import select

from pipeline.converse import TurnOutcome, converse
from pipeline.domain import ActorKind, HistoryActor, NormativeForce
from pipeline.memory import manage
from pipeline.memory.delta import REMOVED_LINE, delta_header
from pipeline.providers.base import Providers
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.changes import current_revision, next_revision
from pipeline.store.people import create_person, create_project, get_person
from pipeline.store.tables import MemoryChangeRow
from tests.conftest import script

PROVIDER = script(
    {"message": "how are you?", "intent": "general_conversation"},
    {
        "message": "I'm allergic to cherimoyas",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to cherimoyas"},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
)


def _setup(store: Store) -> int:
    with store.write() as session:
        ana = create_person(session, "ana")
        create_project(session, ana, "Garden", "")
        create_project(session, ana, "Kitchen", "")
        create_person(session, "bo")
    assert ana.personal_engagement_id is not None
    return ana.personal_engagement_id


def _say(store: Store, message: str, project: str = "Garden", person: str = "ana") -> TurnOutcome:
    return converse(
        store,
        person=person,
        project=project,
        message=message,
        providers=Providers.of(PROVIDER, PROVIDER),
    )


def _commit(store: Store, engagement: int, content: str, **kw) -> int:
    with store.write() as session:
        a = repo.add_assertion(
            session, engagement, content, ActorKind.OPERATOR, NormativeForce.COMMITTED, **kw
        )
    return a.id


def test_a_turn_sees_what_changed_since_its_conversation_last_saw(store: Store) -> None:
    personal = _setup(store)
    first = _say(store, "how are you?")
    assert "Memory updates" not in first.personal_memory  # a new conversation: nothing seen yet
    _commit(store, personal, "Ana is left-handed")
    second = _say(store, "how are you?")
    assert second.personal_memory.startswith(
        "Memory updates since rev 0:\n- +added: [profile] Ana is left-handed\n\nPERSONAL MEMORY"
    )
    assert second.prompt.text.count("+added: [profile] Ana is left-handed") == 1
    third = _say(store, "how are you?")
    assert "Memory updates" not in third.personal_memory  # seen now
    assert third.personal_memory.startswith("PERSONAL MEMORY")


def test_a_conversations_own_changes_are_not_news_to_it(store: Store) -> None:
    _setup(store)
    _say(store, "how are you?")
    _say(store, "I'm allergic to cherimoyas")
    _say(store, "yes")
    after = _say(store, "how are you?")
    assert "Memory updates" not in after.personal_memory
    # another conversation of the same person did not see it happen
    _say(store, "how are you?", project="Kitchen")
    kitchen = _say(store, "how are you?", project="Kitchen")
    assert "Memory updates" not in kitchen.personal_memory  # it started after the change


def test_another_conversation_learns_of_the_change(store: Store) -> None:
    _setup(store)
    _say(store, "how are you?", project="Kitchen")
    _say(store, "I'm allergic to cherimoyas")
    _say(store, "yes")
    kitchen = _say(store, "how are you?", project="Kitchen")
    header = kitchen.personal_memory.split("\n\n")[0]
    assert header.splitlines()[1:] == ["- +added: [profile] You're allergic to cherimoyas"]


def test_at_most_three_bullets_newest_first(store: Store) -> None:
    personal = _setup(store)
    _say(store, "how are you?")
    for n in range(5):
        _commit(store, personal, f"Ana owns {n + 1} bikes")
    lines = _say(store, "how are you?").personal_memory.split("\n\n")[0].splitlines()
    assert lines == [
        "Memory updates since rev 0:",
        "- +added: [profile] Ana owns 5 bikes",
        "- +added: [profile] Ana owns 4 bikes",
        "- +added: [profile] Ana owns 3 bikes",
    ]


def test_forgotten_and_erased_facts_come_back_without_their_text(store: Store) -> None:
    personal = _setup(store)
    kept = _commit(store, personal, "Ana keeps bees")
    gone = _commit(store, personal, "Ana hides a stash of rambutans")
    erased = _commit(store, personal, "Ana owes money to a cherimoya dealer")
    _say(store, "how are you?")
    with store.write() as session:
        repo.set_force(session, gone, NormativeForce.RETRACTED, "asked", by=HistoryActor.CLI)
        repo.amend_content(session, kept, "Ana keeps two hives of bees", by=HistoryActor.CLI)
        repo.set_pinned(session, kept, True, by=HistoryActor.CLI)  # no change to what it says
    manage.erase_fact(store, "ana", "cherimoya")
    memory = _say(store, "how are you?").personal_memory
    header = memory.split("\n\n")[0]
    assert header.splitlines()[1:] == [
        f"- {REMOVED_LINE}",
        "- ↑updated: [profile] Ana keeps two hives of bees",
    ]
    assert "rambutan" not in memory and "cherimoya" not in memory
    with store.read() as session:
        events = session.scalars(
            select(MemoryChangeRow.event).where(MemoryChangeRow.assertion_id == erased)
        ).all()
    assert list(events) == ["created", "deleted"]


def test_procedural_steps_are_not_announced(store: Store) -> None:
    personal = _setup(store)
    _say(store, "how are you?")
    _commit(store, personal, "1. Open the hive. 2. Smoke it.", category="procedural")
    assert "Memory updates" not in _say(store, "how are you?").personal_memory


def test_one_persons_changes_never_reach_anothers_header(store: Store) -> None:
    _setup(store)
    with store.write() as session:
        bo = get_person(session, "bo")
        create_project(session, bo, "Garden", "")
    _say(store, "how are you?")
    _say(store, "how are you?", person="bo")
    assert bo.personal_engagement_id is not None
    _commit(store, bo.personal_engagement_id, "Bo collects stamps")
    assert "stamps" not in _say(store, "how are you?").personal_memory
    assert "Bo collects stamps" in _say(store, "how are you?", person="bo").personal_memory


def test_revisions_increment_atomically_under_concurrent_writers(db_url: str) -> None:
    store = open_store(db_url)
    personal = _setup(store)
    got: list[int] = []
    guard = threading.Lock()
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for _ in range(10):
                with store.write() as session:
                    revision = next_revision(session, personal)
                with guard:
                    got.append(revision)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert errors == []
        assert sorted(got) == list(range(1, 41))
        with store.read() as session:
            assert current_revision(session, personal) == 40
            header, revision = delta_header(session, personal, 40)
        assert (header, revision) == ("", 40)
    finally:
        store.dispose()
