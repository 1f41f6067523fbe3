"""Cold embedding in batches: each batch is stored as it finishes, so an interrupted run keeps
what it embedded and the next run embeds only the rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from sqlalchemy import insert

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, Engagement, NormativeForce, Person
from pipeline.memory.backfill import fill_vectors, missing_vectors, progress_bar
from pipeline.memory.embeddings import Vectors
from pipeline.memory.search import search_memory
from pipeline.store import Store
from pipeline.store import embeddings as vectors_repo
from pipeline.store.tables import AssertionRow


class _Interrupted(Exception):
    pass


class _FailsAfter:
    """The fake embedder, interrupted (as by Ctrl-C) on call number `calls + 1`."""

    def __init__(self, inner: Any, calls: int) -> None:
        self.inner, self.calls = inner, calls
        self.model_name, self.dim = inner.model_name, inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self.calls == 0:
            raise _Interrupted
        self.calls -= 1
        out: Vectors = self.inner.embed(texts)
        return out


_TOPICS = ("gardening", "sourdough", "marathons", "mortgages", "violins")


def _many_facts(store: Store, person: Person, n: int) -> None:
    now = utcnow()
    with store.write() as session:
        session.execute(
            insert(AssertionRow),
            [
                {
                    "engagement_id": person.personal_engagement_id,
                    "display_number": i + 1,
                    "content": f"You noted fact {i} about {_TOPICS[i % len(_TOPICS)]}",
                    "actor": ActorKind.COMPANION.value,
                    "force": NormativeForce.COMMITTED.value,
                    "created_at": now,
                    "updated_at": now,
                }
                for i in range(n)
            ],
        )


def test_an_interrupted_cold_run_keeps_the_batches_it_finished(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    _many_facts(store, person, 250)
    scope = [person.personal_engagement_id or -1]
    with pytest.raises(_Interrupted):
        fill_vectors(store, scope, _FailsAfter(fake_embedder, calls=2), batch=100)
    with store.read() as session:
        assert vectors_repo.count_vectors(session, fake_embedder.model_name) == 200
    assert len(missing_vectors(store, scope, fake_embedder)) == 50

    fake_embedder.embedded.clear()
    assert fill_vectors(store, scope, fake_embedder, batch=100) == 50
    assert len(fake_embedder.embedded) == 50
    assert missing_vectors(store, scope, fake_embedder) == []
    assert fill_vectors(store, scope, fake_embedder) == 0


def test_search_after_a_cold_fill_embeds_only_the_query(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], fake_embedder: Any
) -> None:
    person, _ = make_person(store)
    _many_facts(store, person, 40)
    scope = [person.personal_engagement_id or -1]
    fill_vectors(store, scope, fake_embedder, batch=16)
    fake_embedder.embedded.clear()
    with store.write() as session:
        hits = search_memory(session, scope, "the sourdough", fake_embedder)
    assert fake_embedder.embedded == ["the sourdough"]
    assert hits and all(h.content.endswith("sourdough") for h in hits)


def test_the_progress_bar_goes_to_stderr_and_counts_every_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seen: list[int] = []
    with progress_bar(1_000) as advance:
        for _ in range(4):
            advance(250)
            seen.append(250)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert sum(seen) == 1_000
    with progress_bar(10) as quiet:  # a handful of texts: no bar
        quiet(10)
    assert capsys.readouterr().err == ""
