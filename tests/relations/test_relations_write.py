"""Edges are made when a personal fact is committed: to its most similar committed facts of
the same person at or above link_min, once per pair, each a LINK row in the history; erasure
and purge remove them (pipeline/memory/relations.py, pipeline/store/relations.py)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from relations_helpers import SETTINGS, TableEmbedder, add_facts, toward
from sqlalchemy import update

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, HistoryActor, HistoryOp, NormativeForce
from pipeline.errors import InvalidMessage
from pipeline.memory.relations import link_memory
from pipeline.providers.base import Providers
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.history import history_of
from pipeline.store.lifecycle import sweep
from pipeline.store.people import create_project, get_person
from pipeline.store.relations import count_edges, edges_of, link
from pipeline.store.tables import AssertionRow
from tests.conftest import script

# viola is the anchor; cello 0.8, choir 0.6 and humming 0.55 from it, tomatoes 0.3; each
# keeps the rest of its length on an axis of its own, so they are far from one another.
EMBEDDER = TableEmbedder(
    {
        "viola": toward(0, 1.0),
        "cello": toward(0, 0.8, 9),
        "choir": toward(0, 0.6, 10),
        "humming": toward(0, 0.55, 11),
        "tomatoes": toward(0, 0.3, 12),
    }
)
FACTS = [
    ("viola", "Ana plays the viola"),
    ("cello", "Ana is learning the cello"),
    ("choir", "Ana sings in a choir"),
    ("tomatoes", "Ana grows tomatoes"),
]
BY = HistoryActor.COMPANION


def _link(store: Store, fact_id: int, **settings: object) -> list[tuple[int, float]]:
    with store.write() as session:
        return link_memory(
            session, fact_id, EMBEDDER, by=BY, settings=SETTINGS.model_copy(update=settings)
        )


def _others(store: Store, fact_id: int) -> dict[int, float]:
    with store.read() as session:
        return {e.other_id: round(e.strength, 3) for e in edges_of(session, [fact_id])}


def _links_in_history(store: Store, person: str, number: int) -> list[dict[str, object]]:
    with store.read() as session:
        engagement = get_person(session, person).personal_engagement_id
        assert engagement is not None
        entries = history_of(session, engagement, number)
    return [e.detail for e in entries if e.op is HistoryOp.LINK]


def test_a_fact_is_linked_to_neighbours_at_or_above_link_min_and_not_below(store: Store) -> None:
    ids = add_facts(store, "ana", FACTS)

    made = _link(store, ids["viola"])

    assert [(other, round(s, 3)) for other, s in made] == [(ids["cello"], 0.8), (ids["choir"], 0.6)]
    assert _others(store, ids["viola"]) == {ids["cello"]: 0.8, ids["choir"]: 0.6}
    assert _others(store, ids["tomatoes"]) == {}  # 0.3: below link_min
    assert _links_in_history(store, "ana", 1) == [
        {"linked_number": 2, "strength": 0.8},
        {"linked_number": 3, "strength": 0.6},
    ]


def test_top_k_bounds_the_edges_of_one_write(store: Store) -> None:
    ids = add_facts(store, "ana", [*FACTS, ("humming", "Ana keeps humming at work")])

    assert [other for other, _ in _link(store, ids["viola"], top_k=1)] == [ids["cello"]]
    assert [other for other, _ in _link(store, ids["viola"], top_k=2)] == [ids["choir"]]


def test_repeated_links_and_updates_never_duplicate_an_edge(store: Store) -> None:
    ids = add_facts(store, "ana", FACTS)
    _link(store, ids["viola"])

    assert _link(store, ids["viola"]) == []
    assert _link(store, ids["cello"]) == []  # the pair viola-cello, seen from the other end
    with store.write() as session:
        repo.amend_content(session, ids["viola"], "Ana plays the viola daily", by=BY)
    assert _link(store, ids["viola"]) == []

    with store.read() as session:
        assert count_edges(session) == 2
    assert len(_links_in_history(store, "ana", 1)) == 2
    assert _links_in_history(store, "ana", 2) == []


def test_concurrent_links_of_one_pair_leave_one_edge_and_one_link_row(store: Store) -> None:
    ids = add_facts(store, "ana", FACTS)
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def write(mine: int, other: int) -> None:
        try:
            start.wait(timeout=10)
            with store.write() as session:
                link(session, mine, [(other, 0.8)], by=BY)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [
        threading.Thread(target=write, args=(ids["viola"], ids["cello"])),
        threading.Thread(target=write, args=(ids["cello"], ids["viola"])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    with store.read() as session:
        assert count_edges(session) == 1
    links = _links_in_history(store, "ana", 1) + _links_in_history(store, "ana", 2)
    assert len(links) == 1


def test_edges_never_join_two_people(store: Store) -> None:
    ids = add_facts(store, "ana", FACTS)
    bo = add_facts(store, "bo", [("viola", "Bo plays the viola too")])

    made = _link(store, ids["viola"])

    assert bo["viola"] not in {other for other, _ in made}
    assert _link(store, bo["viola"]) == []  # Bo has no other fact to relate to
    with store.write() as session, pytest.raises(InvalidMessage, match="same person"):
        link(session, ids["viola"], [(bo["viola"], 0.99)], by=BY)
    with store.read() as session:
        assert count_edges(session) == 2


def test_only_committed_personal_facts_are_linked(store: Store) -> None:
    ids = add_facts(store, "ana", FACTS)
    held = add_facts(store, "ana", [("offer", "Ana plays the viola well")], NormativeForce.HELD)
    gone = add_facts(store, "ana", [("gone", "Ana played viola as a child")])
    with store.write() as session:
        repo.set_force(session, gone["gone"], NormativeForce.RETRACTED, by=BY)
        ana = get_person(session, "ana")
        garden = create_project(session, ana, "Garden", "")

        note = repo.add_assertion(
            session,
            garden.id,
            "The viola case sits in the shed",
            ActorKind.OPERATOR,
            NormativeForce.COMMITTED,
        )

    made = {other for other, _ in _link(store, ids["viola"])}

    assert made == {ids["cello"], ids["choir"]}
    assert _link(store, held["offer"]) == []
    assert _link(store, gone["gone"]) == []
    assert _link(store, note.id) == []


def test_erasure_and_purge_remove_every_edge_touching_the_fact(store: Store) -> None:
    ids = add_facts(store, "ana", [*FACTS, ("humming", "Ana keeps humming at work")])
    _link(store, ids["viola"], top_k=1)  # viola-cello
    _link(store, ids["humming"])  # humming-viola (0.55)
    with store.read() as session:
        assert count_edges(session) == 2

    with store.write() as session:
        repo.erase(session, [ids["cello"]], by=HistoryActor.CLI)
    assert _others(store, ids["viola"]) == {ids["humming"]: 0.55}

    now = utcnow()
    with store.write() as session:
        session.execute(
            update(AssertionRow)
            .where(AssertionRow.id == ids["humming"])
            .values(deleted_at=now - timedelta(days=40))
        )
        assert sweep(session, now).purged == (ids["humming"],)
    with store.read() as session:
        assert count_edges(session) == 0


def test_confirming_a_fact_in_conversation_links_it(store: Store, make_person) -> None:
    from pipeline.converse import converse

    make_person(store)
    ids = add_facts(store, "ana", [("cello", "You're learning the cello")])
    provider = script(
        {
            "message": "remember that I play the viola",
            "intent": "remember_about_me",
            "params": {"personal_fact": "You play the viola"},
        },
        {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    )

    def say(message: str) -> None:
        converse(
            store,
            person="ana",
            project="Garden",
            message=message,
            providers=Providers.of(provider, provider, embedder=EMBEDDER),
        )

    say("remember that I play the viola")
    assert _others(store, ids["cello"]) == {}  # an offer is not linked
    say("yes")

    with store.read() as session:
        viola = repo.find_live(
            session, get_person(session, "ana").personal_engagement_id or 0, "You play the viola"
        )
    assert viola is not None
    assert _others(store, ids["cello"]) == {viola.id: 0.8}
    with store.read() as session:
        engagement = get_person(session, "ana").personal_engagement_id or 0
        entries = history_of(session, engagement, viola.display_number)
    link_rows = [e for e in entries if e.op is HistoryOp.LINK]
    assert len(link_rows) == 1 and link_rows[0].actor is HistoryActor.COMPANION


def test_links_through_the_nearest_neighbour_index_find_the_same_edges(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pipeline.memory.relations as relations

    asked: list[int] = []
    real = relations.candidates

    def counted(indexes, vector, count):  # type: ignore[no-untyped-def]
        asked.append(count)
        return real(indexes, vector, count)

    monkeypatch.setattr(relations, "candidates", counted)
    ids = add_facts(store, "ana", FACTS)
    held = add_facts(store, "ana", [("offer", "Ana plays the viola well")], NormativeForce.HELD)

    made = _link(store, ids["viola"], index_min=2)

    assert [(other, round(s, 3)) for other, s in made] == [(ids["cello"], 0.8), (ids["choir"], 0.6)]
    assert held["offer"] not in _others(store, ids["viola"])  # the index holds it; no edge
    assert asked == [16]  # the candidates came from the index
