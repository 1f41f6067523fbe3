"""Stored embeddings: computed once, reused, re-computed when the content changes, erased with
the assertion; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from alembic import command
from sqlalchemy import create_engine, inspect, text

from pipeline.domain import ActorKind, Engagement, HistoryActor, NormativeForce, Person
from pipeline.memory.search import ensure_vectors
from pipeline.store import Store, open_store, upgrade
from pipeline.store import assertions as repo
from pipeline.store import embeddings as vectors_repo
from pipeline.store.engine import alembic_config


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
        repo.amend_content(session, aid, "You're allergic to shrimp", by=HistoryActor.OPERATOR)
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
        repo.erase(session, [items[0][0]], by=HistoryActor.CLI)
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


class _SameModelOtherRuntime:
    """The fake model's vectors, stamped as made by another embedder (another runtime)."""

    def __init__(self, inner: Any, embedder_id: str) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.dim = inner.dim
        self.embedder_id = embedder_id
        self.embedded: list[str] = []

    def embed(self, texts: Any) -> Any:
        self.embedded.extend(texts)
        return self.inner.embed(texts)


def test_vectors_of_another_embedder_are_recomputed_when_first_needed(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    items = _facts(store, person, "You prefer mornings", "You have two cats")
    torch_like = _SameModelOtherRuntime(fake_embedder, "torch:fake")
    onnx_like = _SameModelOtherRuntime(fake_embedder, "onnx:fake")
    with store.write() as session:
        ensure_vectors(session, items, torch_like)
    with store.write() as session:
        ensure_vectors(session, items[:1], onnx_like)  # only what is needed now
    with store.read() as session:
        stored = vectors_repo.load_vectors(session, [a for a, _ in items], fake_embedder.model_name)
    assert onnx_like.embedded == ["You prefer mornings"]
    assert {aid: v.embedder for aid, v in stored.items()} == {
        items[0][0]: "onnx:fake",
        items[1][0]: "torch:fake",
    }
    with store.write() as session:
        ensure_vectors(session, items, onnx_like)
        ensure_vectors(session, items, onnx_like)
        assert vectors_repo.count_vectors(session) == 2
    assert onnx_like.embedded == ["You prefer mornings", "You have two cats"]


def test_an_embedder_without_an_id_is_known_by_its_model_name(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    items = _facts(store, person, "You prefer mornings")
    with store.write() as session:
        ensure_vectors(session, items, fake_embedder)
        [stored] = vectors_repo.load_vectors(session, [items[0][0]], "fake-bow-64").values()
    assert stored.embedder == "fake-bow-64"


def test_migration_0003_stamps_earlier_vectors_with_the_torch_embedder(
    db_url: str, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    store = open_store(db_url)
    person, _ = make_person(store)
    items = _facts(store, person, "You prefer mornings", "You have two cats")
    with store.write() as session:
        ensure_vectors(session, items, fake_embedder)
    store.dispose()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        cfg = alembic_config(db_url)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
        conn.execute(
            text(
                "UPDATE assertion_embeddings SET model = 'all-MiniLM-L6-v2' WHERE assertion_id = :a"
            ),
            {"a": items[0][0]},
        )
    engine.dispose()
    upgrade(db_url)
    store = open_store(db_url)
    with store.read() as session:
        made_by = {
            v.embedder
            for model in ("all-MiniLM-L6-v2", "fake-bow-64")
            for v in vectors_repo.load_vectors(session, [a for a, _ in items], model).values()
        }
    store.dispose()
    assert made_by == {"torch:sentence-transformers", "fake-bow-64"}
