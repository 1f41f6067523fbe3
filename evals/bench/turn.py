"""`converse bench turn`: per-turn pipeline overhead with no model latency."""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, update

from pipeline.clock import utcnow
from pipeline.converse import converse
from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory import load_personal_memory
from pipeline.providers import Providers, ScriptedProvider, ScriptEntry
from pipeline.store import (
    AssertionRow,
    EngagementRow,
    Store,
    create_person,
    create_project,
    open_store,
)

MESSAGE = "What should I plant next to the tomatoes?"


def seed_memory(store: Store, engagement_id: int, n: int) -> None:
    """Insert n committed assertions, one a minute apart, in one transaction."""
    start = utcnow() - timedelta(minutes=n)
    rows = [
        {
            "engagement_id": engagement_id,
            "display_number": i + 1,
            "content": f"You noted personal fact number {i + 1} about your routines",
            "actor": ActorKind.COMPANION.value,
            "force": NormativeForce.COMMITTED.value,
            "created_at": start + timedelta(minutes=i),
            "updated_at": start + timedelta(minutes=i),
        }
        for i in range(n)
    ]
    with store.write() as session:
        session.execute(insert(AssertionRow), rows)
        # numbers are handed out from here, so a later fact must not reuse #1..#n
        session.execute(
            update(EngagementRow)
            .where(EngagementRow.id == engagement_id)
            .values(last_display_number=n)
        )


def _person_with_memory(store: Store, name: str, n: int) -> int:
    with store.write() as session:
        person = create_person(session, name)
        create_project(session, person, "Garden", "A backyard vegetable farm")
    assert person.personal_engagement_id is not None
    seed_memory(store, person.personal_engagement_id, n)
    return person.personal_engagement_id


def _median_load_ms(store: Store, small: int, large: int, repeats: int) -> tuple[float, float]:
    """Median personal-memory load time for two people, measured alternately so that machine
    noise falls on both alike."""
    timings: dict[int, list[float]] = {small: [], large: []}
    with store.reading() as conn:
        for _ in range(repeats):
            for engagement_id in (small, large):
                started = time.perf_counter()
                load_personal_memory(conn, engagement_id)
                timings[engagement_id].append((time.perf_counter() - started) * 1000)
    return statistics.median(timings[small]), statistics.median(timings[large])


def run(turns: int = 1000, assertions: int = 10_000, warmup: int = 50) -> dict[str, Any]:
    """Measure; returns the figures keyed as the issue names them."""
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        small = _person_with_memory(store, "small", 100)
        large = _person_with_memory(store, "large", assertions)
        provider = ScriptedProvider(
            [ScriptEntry(message=MESSAGE, intent="general_conversation", params={})]
        )
        timings = []
        for i in range(warmup + turns):
            started = time.perf_counter()
            converse(
                store,
                person="large",
                project="Garden",
                message=MESSAGE,
                providers=Providers.of(provider, provider),
            )
            if i >= warmup:
                timings.append((time.perf_counter() - started) * 1000)
        load_small, load_large = _median_load_ms(store, small, large, 1000)
        store.dispose()
    ordered = sorted(timings)
    return {
        "median_ms": round(statistics.median(timings), 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3),
        "memory_load_ms_100": round(load_small, 3),
        "memory_load_ms_10000": round(load_large, 3),
        "memory_load_ratio": round(load_large / load_small, 3),
        "n": turns,
        "assertions": assertions,
    }
