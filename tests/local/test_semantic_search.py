"""Hybrid search: cosine similarity, keyword match and recency, vectorised over all rows."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from pipeline.domain import ActorKind, Engagement, NormativeForce, Person
from pipeline.english.lexicon import ENGLISH
from pipeline.memory.embeddings import normalized
from pipeline.memory.matching import content_words, keyword_score
from pipeline.memory.search import MemoryIndex, search_memory
from pipeline.providers.local import MiniLMEmbedder
from pipeline.store import Store
from pipeline.store import assertions as repo

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _index(
    vectors: list[list[float]],
    ages_days: list[float],
    contents: list[str],
    stop_words: frozenset[str] = frozenset(),
) -> MemoryIndex:
    created = [NOW - timedelta(days=d) for d in ages_days]
    return MemoryIndex(normalized(np.array(vectors)), created, contents, stop_words)


def test_more_similar_ranks_first() -> None:
    index = _index([[1, 0, 0], [0.8, 0.6, 0], [0, 0, 1]], [1, 1, 1], ["a", "b", "c"])
    hits = index.top("", normalized([[1, 0, 0]])[0], NOW, k=5)
    assert [row for row, _, _ in hits] == [0, 1]  # row 2 is below the similarity threshold


def test_recency_decides_between_equally_similar_memories() -> None:
    index = _index([[1, 0], [1, 0]], [200, 2], ["old", "new"])
    hits = index.top("", normalized([[1, 0]])[0], NOW, k=2)
    assert [row for row, _, _ in hits] == [1, 0]
    assert hits[0][2] == pytest.approx(0.7 * 1.0 + 0.3 / (1 + 0.1 * 2), abs=1e-5)
    assert hits[1][2] == pytest.approx(0.7 * 1.0 + 0.3 / (1 + 0.1 * 200), abs=1e-5)


def test_keyword_match_raises_similarity_by_half_the_gap() -> None:
    index = _index([[1, 0], [1, 0]], [5, 5], ["You live in Miami", "You like jazz"])
    query = normalized([[0.6, 0.8]])[0]
    similarity, _ = index.scores("miami", query, NOW)
    assert similarity[1] == pytest.approx(0.6, abs=1e-5)
    assert similarity[0] == pytest.approx(0.6 + 0.5 * 1.0 * 0.4, abs=1e-5)


def test_vectorised_keyword_fraction_follows_the_forget_matching_rule() -> None:
    contents = [
        "You're allergic to all shellfish",
        "You prefer working in the mornings",
        "Your allergy clinic is on Elm Street",
        "You have a morning run at six",
    ]
    for stop_words in (ENGLISH.stop_words, frozenset()):
        index = _index([[1, 0]] * 4, [1] * 4, contents, stop_words)
        for query in ("allergy mornings", "shellfish thing", "morning", "elm run six", "the"):
            keys = content_words(query, stop_words)
            expected = [keyword_score(keys, c) / len(keys) if keys else 0.0 for c in contents]
            assert index.keyword_fraction(query).tolist() == pytest.approx(expected)


def test_without_a_lexicon_every_query_word_counts_in_the_keyword_share() -> None:
    contents = ["You live in Miami", "You like jazz"]
    lent = _index([[1, 0]] * 2, [1] * 2, contents, ENGLISH.stop_words)
    bare = _index([[1, 0]] * 2, [1] * 2, contents)
    assert lent.keyword_fraction("the Miami thing").tolist() == pytest.approx([1.0, 0.0])
    assert bare.keyword_fraction("the Miami thing").tolist() == pytest.approx([1 / 3, 0.0])


def test_top_k_is_bounded() -> None:
    rng = np.random.default_rng(1)
    base = rng.standard_normal(8)
    vectors = [list(base + 0.01 * rng.standard_normal(8)) for _ in range(20)]
    index = _index(vectors, list(range(20)), [f"note {i}" for i in range(20)])
    hits = index.top("", normalized([base])[0], NOW, k=3)
    assert len(hits) == 3
    assert [row for row, _, _ in hits] == [0, 1, 2]  # equally similar: the newest first


def test_search_memory_reads_live_assertions_and_stores_vectors(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    assert person.personal_engagement_id is not None
    with store.write() as session:
        for content, force in [
            ("You live in Miami", NormativeForce.COMMITTED),
            ("You have two cats", NormativeForce.HELD),
            ("You live in Boston", NormativeForce.RETRACTED),
        ]:
            repo.add_assertion(
                session, person.personal_engagement_id, content, ActorKind.COMPANION, force
            )
    with store.write() as session:
        hits = search_memory(session, [person.personal_engagement_id], "live Miami", fake_embedder)
    assert hits[0].content == "You live in Miami"
    assert "You live in Boston" not in [h.content for h in hits]
    with store.write() as session:
        search_memory(session, [person.personal_engagement_id], "cats", fake_embedder)
    assert fake_embedder.embedded.count("You live in Miami") == 1


@pytest.mark.slow
def test_meaning_finds_what_keywords_miss(embedder: MiniLMEmbedder) -> None:
    contents = [
        "You're allergic to all shellfish",
        "Your birthday is March 15th",
        "You live in Miami",
    ]
    index = MemoryIndex(embedder.embed(contents), [NOW] * 3, contents)
    hits = index.top("seafood", embedder.embed(["seafood"])[0], NOW, k=1)
    assert [contents[row] for row, _, _ in hits] == ["You're allergic to all shellfish"]
    assert index.top("football scores", embedder.embed(["football scores"])[0], NOW) == []
