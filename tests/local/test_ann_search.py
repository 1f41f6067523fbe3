"""Search through a nearest-neighbour index: kept in step with the store, one person's only."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from pipeline.domain import ActorKind, Engagement, HistoryActor, NormativeForce, Person
from pipeline.memory.search import search_memory
from pipeline.store import Store, ann
from pipeline.store import assertions as repo
from tests.local.conftest import CountingEmbedder

# never `import usearch` directly here: see the last test
pytestmark = pytest.mark.skipif(not ann.available(), reason="usearch is not installed (ann extra)")

FACTS = [
    "You live in Miami near the beach",
    "You have two cats called Pip and Moss",
    "You are allergic to shellfish",
    "Your sister Lena lives in Leeds",
    "You run every Sunday morning",
    "You work night shifts at the hospital",
]


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Index engagements of 3 facts or more; no index stays open between tests."""
    monkeypatch.setenv("CONVERSE_ANN_MIN_VECTORS", "3")
    ann.forget_open()
    yield
    ann.forget_open()


def _person(store: Store, make_person: Callable[..., tuple[Person, Engagement]], name: str) -> int:
    person, _ = make_person(store, name)
    assert person.personal_engagement_id is not None
    with store.write() as session:
        for fact in FACTS:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                fact,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )
    return person.personal_engagement_id


def _search(store: Store, engagement: int, query: str, embedder: CountingEmbedder) -> list[str]:
    with store.write() as session:
        return [h.content for h in search_memory(session, [engagement], query, embedder)]


def _index(store: Store, engagement: int, embedder: CountingEmbedder) -> ann.VectorIndex:
    with store.read() as session:
        found = ann.cached(session, engagement, embedder.model_name)
    assert found is not None
    return found


def _ids(store: Store, engagement: int) -> dict[str, int]:
    with store.read() as session:
        return {a.content: a.id for a in repo.list_assertions(session, engagement)}


def test_the_index_finds_what_exact_search_finds(
    store: Store, make_person, fake_embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    engagement = _person(store, make_person, "ana")
    queries = ["where do you live", "cats", "shellfish allergy", "sister in Leeds", "Sunday"]
    through_index = [_search(store, engagement, q, fake_embedder) for q in queries]
    assert len(_index(store, engagement, fake_embedder)) == len(FACTS)
    monkeypatch.setenv("CONVERSE_ANN_MIN_VECTORS", "1000")
    ann.forget_open()
    exact = [_search(store, engagement, q, fake_embedder) for q in queries]
    assert through_index == exact
    assert through_index[1][0] == "You have two cats called Pip and Moss"


def test_below_the_threshold_no_index_is_made(
    sqlite_store: Store,
    sqlite_url: str,
    make_person,
    fake_embedder: CountingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CONVERSE_ANN_MIN_VECTORS", "7")
    engagement = _person(sqlite_store, make_person, "ana")
    assert _search(sqlite_store, engagement, "cats", fake_embedder)[0].endswith("Pip and Moss")
    assert not Path(sqlite_url.removeprefix("sqlite:///") + ".ann").exists()


def test_inserts_and_edits_reach_the_index(
    store: Store, make_person, fake_embedder: CountingEmbedder
) -> None:
    engagement = _person(store, make_person, "ana")
    assert _search(store, engagement, "violin lessons", fake_embedder) == []
    with store.write() as session:
        added = repo.add_assertion(
            session,
            engagement,
            "You take violin lessons",
            ActorKind.COMPANION,
            NormativeForce.COMMITTED,
        )
    assert _search(store, engagement, "violin lessons", fake_embedder)[0] == (
        "You take violin lessons"
    )
    assert added.id in _index(store, engagement, fake_embedder)
    with store.write() as session:
        repo.amend_content(session, added.id, "You take cello lessons", by=HistoryActor.CLI)
    assert "You take violin lessons" not in _search(store, engagement, "violin", fake_embedder)
    assert _search(store, engagement, "cello", fake_embedder)[0] == "You take cello lessons"
    vector = _index(store, engagement, fake_embedder).index.get(added.id)
    expected = fake_embedder.embed(["You take cello lessons"])[0]
    assert np.dot(np.asarray(vector, dtype=np.float32), expected) > 0.99


def test_retracted_and_restored_facts_leave_and_rejoin_the_index(
    store: Store, make_person, fake_embedder: CountingEmbedder
) -> None:
    engagement = _person(store, make_person, "ana")
    cats = _ids(store, engagement)["You have two cats called Pip and Moss"]
    _search(store, engagement, "cats", fake_embedder)
    with store.write() as session:
        repo.set_force(session, cats, NormativeForce.RETRACTED, "wrong", by=HistoryActor.CLI)
    assert "You have two cats called Pip and Moss" not in _search(
        store, engagement, "cats Pip Moss", fake_embedder
    )
    assert cats not in _index(store, engagement, fake_embedder)
    with store.write() as session:
        repo.set_force(session, cats, NormativeForce.COMMITTED, by=HistoryActor.CLI)
    assert _search(store, engagement, "cats Pip Moss", fake_embedder)[0].startswith("You have two")
    assert cats in _index(store, engagement, fake_embedder)


def test_erasing_removes_the_vector_from_the_index_and_its_file(
    sqlite_store: Store, sqlite_url: str, make_person, fake_embedder: CountingEmbedder
) -> None:
    engagement = _person(sqlite_store, make_person, "ana")
    shellfish = _ids(sqlite_store, engagement)["You are allergic to shellfish"]
    _search(sqlite_store, engagement, "shellfish", fake_embedder)
    index = _index(sqlite_store, engagement, fake_embedder)
    assert index.path is not None and index.path.exists()
    secret = fake_embedder.embed(["You are allergic to shellfish"])[0].astype(np.float16).tobytes()
    assert secret in index.path.read_bytes()  # the check below can fail
    with sqlite_store.write() as session:
        repo.erase(session, [shellfish], by=HistoryActor.CLI)
    assert shellfish not in index
    assert secret not in index.path.read_bytes()
    ann.forget_open()  # a new process: reads the file, then the store
    assert "You are allergic to shellfish" not in _search(
        sqlite_store, engagement, "allergic to shellfish", fake_embedder
    )
    reopened = _index(sqlite_store, engagement, fake_embedder)
    assert shellfish not in reopened and len(reopened) == len(FACTS) - 1


def test_one_persons_memory_never_reaches_anothers_results(
    store: Store, make_person, fake_embedder: CountingEmbedder
) -> None:
    ana = _person(store, make_person, "ana")
    ben = _person(store, make_person, "ben")
    ana_ids = set(_ids(store, ana).values())
    with store.write() as session:
        repo.add_assertion(
            session, ben, "Ben keeps bees in Leeds", ActorKind.COMPANION, NormativeForce.COMMITTED
        )
    for query in ("bees in Leeds", "cats", "Miami beach", "Ben"):
        with store.write() as session:
            hits = search_memory(session, [ana], query, fake_embedder, k=20, min_similarity=-1)
        assert hits and {h.assertion_id for h in hits} <= ana_ids
        assert all(h.engagement_id == ana for h in hits)
    assert _index(store, ana, fake_embedder).keys() == ana_ids


def test_a_missing_or_stale_index_is_rebuilt_from_the_store(
    sqlite_store: Store, make_person, fake_embedder: CountingEmbedder
) -> None:
    engagement = _person(sqlite_store, make_person, "ana")
    _search(sqlite_store, engagement, "cats", fake_embedder)
    path = _index(sqlite_store, engagement, fake_embedder).path
    assert path is not None
    ann.forget_open()
    with sqlite_store.write() as session:  # another process writes while no index is open
        repo.add_assertion(
            session,
            engagement,
            "You collect stamps",
            ActorKind.COMPANION,
            NormativeForce.COMMITTED,
        )
    assert _search(sqlite_store, engagement, "stamps", fake_embedder)[0] == "You collect stamps"
    ann.forget_open()
    path.unlink()
    assert _search(sqlite_store, engagement, "stamps", fake_embedder)[0] == "You collect stamps"
    assert len(_index(sqlite_store, engagement, fake_embedder)) == len(FACTS) + 1

    class OtherEmbedder(CountingEmbedder):
        embedder_id = "another-runtime"

    other = OtherEmbedder()
    _search(sqlite_store, engagement, "stamps", other)
    assert _index(sqlite_store, engagement, other).embedder == "another-runtime"


def test_a_bad_setting_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSE_ANN_MIN_VECTORS", "none")
    with pytest.raises(Exception, match="CONVERSE_ANN_MIN_VECTORS='none' is not valid"):
        ann.ann_settings()


def test_the_model_runtime_still_loads_after_the_index_library() -> None:
    """usearch's compiled module loaded before onnxruntime crashes onnxruntime's import; the
    index module imports onnxruntime first, so any order of use works."""
    import subprocess
    import sys

    probe = (
        "from pipeline.store import ann; "
        "ann.VectorIndex(engagement_id=1, model='m', embedder='m', dim=8, dtype='f16'); "
        "import sys; assert 'usearch.compiled' in sys.modules; "
        "import onnxruntime; print('loaded', onnxruntime.__version__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("loaded")


def test_erasing_without_the_index_library_deletes_the_engagements_index_files(
    sqlite_store: Store,
    make_person,
    fake_embedder: CountingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engagement = _person(sqlite_store, make_person, "ana")
    _search(sqlite_store, engagement, "cats", fake_embedder)
    path = _index(sqlite_store, engagement, fake_embedder).path
    assert path is not None and path.exists()
    ann.forget_open()
    monkeypatch.setattr(ann, "available", lambda: False)
    with sqlite_store.write() as session:
        repo.erase(
            session,
            [_ids(sqlite_store, engagement)["You are allergic to shellfish"]],
            by=HistoryActor.CLI,
        )
    assert not path.exists() and not path.with_suffix(".json").exists()


def test_facts_of_equal_score_come_in_id_order_through_the_index_and_without(
    store: Store, make_person, fake_embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ties are broken by id, so the index and exact search agree on every order."""
    engagement = _person(store, make_person, "ana")
    twins = ["You keep bees on the roof", "You keep bees on the roof"]
    with store.write() as session:
        ids = [
            repo.add_assertion(
                session, engagement, t, ActorKind.COMPANION, NormativeForce.COMMITTED
            ).id
            for t in twins
        ]
    through_index = _hits(store, engagement, "bees", fake_embedder)
    monkeypatch.setenv("CONVERSE_ANN_MIN_VECTORS", "1000")
    ann.forget_open()
    exact = _hits(store, engagement, "bees", fake_embedder)
    assert through_index[:2] == exact[:2] == sorted(ids)


def _hits(store: Store, engagement: int, query: str, embedder: CountingEmbedder) -> list[int]:
    with store.write() as session:
        return [h.assertion_id for h in search_memory(session, [engagement], query, embedder)]
