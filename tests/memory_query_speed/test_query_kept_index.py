"""memory.query's kept index (pipeline/memory/query_index.py): a text query ranks exactly as
indexing the filtered rows afresh does, the store's filters and allowlists still decide what
may be returned, and a change the store logs is never served stale."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from datetime import timedelta

import numpy as np
import pytest
from sqlalchemy import update

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, HistoryActor, NormativeForce
from pipeline.errors import NotAllowed
from pipeline.memory import query_index
from pipeline.memory.embeddings import Vectors, normalized
from pipeline.memory.query import MemoryQuery, memory_query, ranked_afresh
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.filtered import Filters, filtered_memories
from pipeline.store.people import create_person, create_project, get_person
from pipeline.store.tables import AssertionRow

CATEGORIES = ("profile", "preferences", "relationships", "goals", "events")
WORDS = [
    "tea",
    "coffee",
    "garden",
    "tomato",
    "bike",
    "ferry",
    "knee",
    "sister",
    "budget",
    "piano",
    "lessons",
    "morning",
    "evening",
    "weekend",
    "Lisbon",
    "Kyoto",
    "birthday",
    "dog",
    "cat",
    "bread",
    "oven",
    "running",
    "swimming",
    "yoga",
    "mortgage",
]
QUERIES = (
    "what does she drink in the morning",
    "garden tomato plans",
    "the sister's birthday",
    "knee and running",
    "unrelated words entirely",
)


class WordsEmbedder:
    """A deterministic bag-of-words embedder: texts sharing words are similar."""

    model_name = "fake-words-32"
    dim = 32

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        return normalized(rows + 1e-6)


@pytest.fixture(autouse=True)
def _cold() -> Iterator[None]:
    query_index.forget_indexes()
    yield
    query_index.forget_indexes()


def _seed(store: Store, n: int = 240) -> dict[str, int]:
    """ana: n facts in five categories with spread importance and times, and project notes;
    bo: facts sharing ana's words."""
    rng = np.random.default_rng(7)
    now = utcnow()
    with store.write() as session:
        ana = create_person(session, "ana")
        garden = create_project(session, ana, "Garden", "")
        bo = create_person(session, "bo")
        assert ana.personal_engagement_id is not None and bo.personal_engagement_id is not None
        ids = {"ana": ana.id, "bo": bo.id}
        for i in range(n):
            words = " ".join(rng.choice(WORDS, size=3))
            a = repo.add_assertion(
                session,
                ana.personal_engagement_id,
                f"Ana mentioned {words} (fact {i})",
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category=CATEGORIES[i % len(CATEGORIES)],
            )
            days = float(rng.uniform(0, 200))
            session.execute(
                update(AssertionRow)
                .where(AssertionRow.id == a.id)
                .values(
                    importance=round(float(rng.uniform(0, 1)), 2),
                    created_at=now - timedelta(days=days),
                    updated_at=now - timedelta(days=days * float(rng.uniform(0, 1))),
                )
            )
        for i in range(20):
            repo.add_assertion(
                session,
                garden.id,
                f"Garden note: {' '.join(rng.choice(WORDS, size=3))} ({i})",
                ActorKind.OPERATOR,
                NormativeForce.HELD if i % 2 else NormativeForce.COMMITTED,
            )
        for i in range(30):
            repo.add_assertion(
                session,
                bo.personal_engagement_id,
                f"Bo mentioned {' '.join(rng.choice(WORDS, size=3))} ({i})",
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category="preferences",
            )
    return ids


FILTER_SETS = (
    {},
    {"categories": ("preferences", "goals", "events")},
    {"importance_min": 0.2, "importance_max": 0.8},
    {"updated_after_days": 90},
    {
        "categories": ("preferences", "goals", "events"),
        "importance_min": 0.3,
        "importance_max": 0.9,
        "updated_after_days": 120,
    },
    {"categories": ("knowledge",)},
)


def _request(query: str, filters: dict[str, object], top_k: int = 10) -> MemoryQuery:
    values = dict(filters)
    days = values.pop("updated_after_days", None)
    if isinstance(days, int):
        values["updated_after"] = utcnow() - timedelta(days=days)
    return MemoryQuery(person="ana", query=query, top_k=top_k, budget_tokens=10_000, **values)


def _reference(store: Store, request: MemoryQuery, embedder: WordsEmbedder, now):
    """The ranking of the rows that pass the filters, indexed afresh (the slow path)."""
    with store.write() as session:
        person = get_person(session, request.person)
        filters = Filters(
            person_id=person.id,
            reader=request.agent,
            categories=request.categories,
            importance_min=request.importance_min,
            importance_max=request.importance_max,
            updated_after=request.updated_after,
        )
        found = filtered_memories(session, filters)
        return ranked_afresh(session, found, request, embedder, now)


@pytest.mark.parametrize("filters", FILTER_SETS, ids=lambda f: ",".join(f) or "none")
def test_the_kept_index_ranks_as_indexing_afresh_does(store: Store, filters) -> None:
    _seed(store)
    embedder = WordsEmbedder()
    now = utcnow()
    compared = 0
    for query in QUERIES:
        request = _request(query, filters)
        expected = _reference(store, request, embedder, now)[: request.top_k]
        with store.write() as session:
            got = memory_query(session, request, embedder, now=now).items
        assert [(i.id, i.similarity, i.score) for i in got] == [
            (i.id, i.similarity, i.score) for i in expected
        ], query
        compared += len(got)
    assert compared > 0  # the fixture gives the comparison something to compare


def test_the_index_is_built_once_and_rebuilt_when_the_store_changes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _seed(store)
    embedder = WordsEmbedder()
    builds = []
    real = query_index._build
    monkeypatch.setattr(
        query_index,
        "_build",
        lambda *a: builds.append(1) or real(*a),
    )
    for query in QUERIES:
        with store.write() as session:
            memory_query(session, _request(query, {}), embedder)
    assert len(builds) == 2  # the first stores the vectors it embedded; the second is kept
    with store.write() as session:
        target = memory_query(session, _request("garden tomato plans", {}), embedder).items[0]
        repo.amend_content(
            session, target.id, "Ana gave up on zucchini entirely", by=HistoryActor.CLI
        )
    with store.write() as session:
        found = memory_query(session, _request("zucchini", {}), embedder).items
    assert len(builds) == 3
    assert found and found[0].id == target.id and "zucchini" in found[0].text
    assert ids["ana"] != ids["bo"]


def test_filters_changed_without_a_logged_change_still_apply(store: Store) -> None:
    """Importance, pinned and category are not in the vector change log: the store decides."""
    _seed(store)
    embedder = WordsEmbedder()
    request = _request("garden tomato plans", {"importance_min": 0.5})
    with store.write() as session:
        first = memory_query(session, request, embedder).items[0]
        repo.set_importance(session, first.id, 0.1, by=HistoryActor.CLI)
    with store.write() as session:
        again = memory_query(session, request, embedder).items
    assert first.id not in [i.id for i in again]
    assert all(i.importance >= 0.5 for i in again)


def test_a_request_outside_the_allowlist_is_still_an_error(store: Store) -> None:
    _seed(store)
    embedder = WordsEmbedder()
    with store.write() as session:
        memory_query(session, _request("garden", {}), embedder)  # the index is warm
    with store.write() as session, pytest.raises(NotAllowed, match="procedural"):
        memory_query(
            session,
            MemoryQuery(person="ana", agent="stylist", query="garden", categories=("procedural",)),
            embedder,
        )


def test_another_persons_memory_never_ranks(store: Store) -> None:
    _seed(store)
    embedder = WordsEmbedder()
    for person in ("bo", "ana", "bo"):
        with store.write() as session:
            found = memory_query(
                session,
                MemoryQuery(person=person, query="morning tea coffee", top_k=50),
                embedder,
            ).items
        owner = "Bo" if person == "bo" else "Ana"
        assert found and all(i.text.split("] ", 1)[1].startswith((owner, "Garden")) for i in found)


def test_a_fact_added_in_the_same_transaction_is_found(store: Store) -> None:
    _seed(store)
    embedder = WordsEmbedder()
    with store.write() as session:
        memory_query(session, _request("garden", {}), embedder)
    with store.write() as session:
        person = get_person(session, "ana")
        assert person.personal_engagement_id is not None
        added = repo.add_assertion(
            session,
            person.personal_engagement_id,
            "Ana keeps bees on the allotment",
            ActorKind.OPERATOR,
            NormativeForce.COMMITTED,
        )
        found = memory_query(session, _request("bees allotment", {}), embedder).items
    assert found[0].id == added.id


@pytest.mark.parametrize("top_k", [1, 3])
def test_equal_scores_come_in_the_stores_order_across_pages(store: Store, top_k: int) -> None:
    """Twenty identical facts score the same: the most recently updated come first, as they
    do when the filtered rows are ranked afresh, even where a page boundary cuts the tie."""
    _seed(store)
    now = utcnow()
    created = now - timedelta(days=3)
    with store.write() as session:
        person = get_person(session, "ana")
        assert person.personal_engagement_id is not None
        for i in range(20):
            a = repo.add_assertion(
                session,
                person.personal_engagement_id,
                "Ana keeps bees on the allotment",
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
            )
            session.execute(
                update(AssertionRow)
                .where(AssertionRow.id == a.id)
                .values(created_at=created, updated_at=now - timedelta(hours=20 - (i * 7) % 20))
            )
    embedder = WordsEmbedder()
    request = _request("bees allotment", {}, top_k=top_k)
    expected = _reference(store, request, embedder, now)[:top_k]
    with store.write() as session:
        got = memory_query(session, request, embedder, now=now).items
    assert [i.id for i in got] == [i.id for i in expected]
    assert len({i.score for i in got}) == 1  # a tie indeed
