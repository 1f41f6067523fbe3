"""A job's pass for a person and day is claimed exactly once, however many workers start at
once: the unique constraint decides, on SQLite and on PostgreSQL."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from pipeline.store import Store, open_store
from pipeline.store.job_runs import claim, runs_of

NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)


def _claim_in_own_store(url: str) -> int | None:
    store = open_store(url)
    try:
        with store.write() as session:
            return claim(session, "consolidation", 1, "2026-11-26", NOW)
    finally:
        store.dispose()


def test_threads_with_their_own_connections_claim_once(
    store: Store, db_url: str, make_person
) -> None:
    person, _ = make_person(store)
    assert person.id == 1
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(_claim_in_own_store, [db_url] * 8))
    assert sum(1 for g in got if g is not None) == 1
    with store.read() as session:
        assert [(r.job, r.day) for r in runs_of(session, person.id)] == [
            ("consolidation", "2026-11-26")
        ]


def test_processes_claim_once(store: Store, db_url: str, make_person) -> None:
    make_person(store)
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        got = pool.map(_claim_in_own_store, [db_url] * 6)
    assert sum(1 for g in got if g is not None) == 1


def test_another_day_or_job_is_a_new_claim(store: Store, make_person) -> None:
    person, _ = make_person(store)
    with store.write() as session:
        assert claim(session, "consolidation", person.id, "2026-11-26", NOW) is not None
        assert claim(session, "consolidation", person.id, "2026-11-26", NOW) is None
        assert claim(session, "consolidation", person.id, "2026-11-27", NOW) is not None
        assert claim(session, "theory_of_mind", person.id, "2026-11-26", NOW) is not None
