"""Turns of one person are serialized; different persons do not block each other."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from pipeline.converse import converse
from pipeline.memory.manage import personal_assertions
from pipeline.providers.base import Providers
from pipeline.store import open_store
from pipeline.store.people import get_person
from pipeline.store.turns import recent_turns
from tests.conftest import script

# Unrelated facts: each is new, not a refinement of the offer made on the turn before.
FACTS = [
    "You collect stamps",
    "You own a kayak",
    "Your sister lives in Lyon",
    "You are left-handed",
    "Your dog is called Pepper",
    "You speak Portuguese",
    "You work night shifts",
    "You avoid caffeine",
    "Your birthday is in June",
    "You drive an electric car",
    "You grew up in Quito",
    "You play the cello",
]
provider = script(
    *[
        {
            "message": f"remember stamp series {i}",
            "intent": "remember_about_me",
            "params": {"personal_fact": fact},
        }
        for i, fact in enumerate(FACTS)
    ],
    {"message": "hello", "intent": "general_conversation"},
)


def _turn(store, message, person="ana"):
    return converse(
        store, person=person, message=message, providers=Providers.of(provider, provider)
    )


def test_parallel_turns_for_one_person_lose_and_duplicate_nothing(store, make_person):
    make_person(store)
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda i: _turn(store, f"remember stamp series {i}"), range(len(FACTS))))
    with store.read() as session:
        person = get_person(session, "ana")
        stored = personal_assertions(session, person)
        turns = recent_turns(session, person.id, None, 100)
    assert sorted(a.content for a in stored) == sorted(FACTS)
    assert sorted(a.display_number for a in stored) == list(range(1, len(FACTS) + 1))
    assert len(turns) == 2 * len(FACTS)


def test_two_store_handles_on_one_database_lose_nothing(db_url, make_person):
    """Two opened stores behave like two processes: locks in one don't cover the other."""
    first, second = open_store(db_url), open_store(db_url)
    try:
        make_person(first)
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(
                pool.map(
                    lambda i: _turn(first if i % 2 else second, f"remember stamp series {i}"),
                    range(len(FACTS)),
                )
            )
        with first.read() as session:
            stored = personal_assertions(session, get_person(session, "ana"))
        assert sorted(a.content for a in stored) == sorted(FACTS)
        assert len({a.display_number for a in stored}) == len(FACTS)
    finally:
        first.dispose()
        second.dispose()


def test_a_busy_person_does_not_block_another(store, make_person):
    ana, _ = make_person(store, "ana")
    make_person(store, "ben")
    done = threading.Event()
    with store.person_lock(ana.id):
        ana_turn = threading.Thread(target=_turn, args=(store, "hello", "ana"))
        ana_turn.start()
        ben_turn = threading.Thread(target=lambda: (_turn(store, "hello", "ben"), done.set()))
        ben_turn.start()
        assert done.wait(timeout=30), "ben's turn waited for ana's lock"
        ana_turn.join(timeout=0.5)
        assert ana_turn.is_alive(), "ana's turn ran while her lock was held"
    ana_turn.join(timeout=30)
    assert not ana_turn.is_alive()
