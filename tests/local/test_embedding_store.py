"""Stored embeddings: computed once, reused, re-computed when the content changes, erased with
the assertion; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from sqlalchemy import inspect

from pipeline.domain import ActorKind, Engagement, NormativeForce, Person
from pipeline.memory.search import ensure_vectors
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store import embeddings as vectors_repo


def _facts(store: Store, person: Person, *contents: str) -> list[tuple[int, str]]:
    assert person.personal_engagement_id is not None
    with store.write() as session:
        made = [
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                c,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )
            for c in contents
        ]
    return [(a.id, a.content) for a in made]


def test_migration_0002_creates_the_table(store: Store) -> None:
    assert "assertion_embeddings" in inspect(store.engine).get_table_names()


def test_vectors_are_computed_once_and_reused(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    items = _facts(store, person, "You're allergic to shellfish", "You live in Miami")
    with store.write() as session:
        first = ensure_vectors(session, items, fake_embedder)
    with store.write() as session:
        second = ensure_vectors(session, items, fake_embedder)
        assert vectors_repo.count_vectors(session, fake_embedder.model_name) == 2
    assert fake_embedder.embedded == ["You're allergic to shellfish", "You live in Miami"]
    assert np.array_equal(first, second)
    assert first.dtype == np.float32 and first.shape == (2, fake_embedder.dim)


def test_an_amended_assertion_is_embedded_again(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    [(aid, _content)] = _facts(store, person, "You're allergic to all shellfish")
    with store.write() as session:
        ensure_vectors(session, [(aid, "You're allergic to all shellfish")], fake_embedder)
        repo.amend_content(session, aid, "You're allergic to shrimp")
    with store.write() as session:
        ensure_vectors(session, [(aid, "You're allergic to shrimp")], fake_embedder)
        ensure_vectors(session, [(aid, "You're allergic to shrimp")], fake_embedder)
        assert vectors_repo.count_vectors(session) == 1
    assert fake_embedder.embedded == [
        "You're allergic to all shellfish",
        "You're allergic to shrimp",
    ]


def test_erasing_an_assertion_erases_its_vectors(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    items = _facts(store, person, "You work night shifts", "You have two cats")
    with store.write() as session:
        ensure_vectors(session, items, fake_embedder)
        repo.erase(session, [items[0][0]])
    with store.read() as session:
        left = vectors_repo.load_vectors(
            session, [aid for aid, _ in items], fake_embedder.model_name
        )
    assert list(left) == [items[1][0]]


def test_vectors_of_another_model_are_kept_apart(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    items = _facts(store, person, "You prefer mornings")
    with store.write() as session:
        ensure_vectors(session, items, fake_embedder)
    with store.read() as session:
        assert vectors_repo.load_vectors(session, [items[0][0]], "another-model") == {}
        rows = vectors_repo.embedded_assertions(
            session, [person.personal_engagement_id or -1], fake_embedder.model_name
        )
    assert [(r.content, r.stored is not None) for r in rows] == [("You prefer mornings", True)]
