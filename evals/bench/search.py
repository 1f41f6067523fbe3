"""`converse bench search`: query latency of semantic memory search over stored embeddings.

n assertions with 384-d vectors are stored in a temporary SQLite store, loaded once into a
MemoryIndex (timed as `index_s`), and queried: every query scores all n rows with numpy
(cosine, keyword fraction, recency) and takes the top 5. The vectors are synthetic — clusters
of unit vectors — so the run needs no model and finishes in well under two minutes; search
cost does not depend on where the vectors came from. The search is exact, so recall@5
against a brute-force ranking is 1.0 (measured, not assumed).

`--cold` (`run_cold`) measures the other end: a person with 10,000 facts and no stored
vectors, searched once with the real embedder, as `converse search` does — every vector is
embedded in batches and stored, then the query runs (`cold_s`), with the process's peak
resident memory (`peak_mb`).
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import insert
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory.backfill import fill_vectors
from pipeline.memory.embeddings import Embedder, Vectors, normalized, to_bytes
from pipeline.memory.search import (
    MIN_SIMILARITY,
    RECENCY_RATE,
    RECENCY_WEIGHT,
    MemoryIndex,
    content_sha256,
    search_memory,
)
from pipeline.store import AssertionEmbeddingRow, AssertionRow, Store, create_person, open_store
from pipeline.store import embeddings as repo

DIM = 384
MODEL = "bench-synthetic-384"
_TOPIC_WORDS = (
    "allergy shellfish peanuts dairy gluten diet vegetarian vegan kosher spicy coffee tea "
    "morning evening weekend schedule shift gym running swimming yoga knee back migraine "
    "birthday anniversary daughter son wife husband partner sister brother mother father dog "
    "cat garden kitchen oven bread budget mortgage salary commute bus bike car train Miami "
    "Leeds Toronto Lisbon Kyoto Berlin Denver Lagos Madrid Osaka"
)
_TOPICS = tuple(_TOPIC_WORDS.split(" "))


def _contents(rng: np.random.Generator, n: int) -> list[str]:
    picks = rng.integers(0, len(_TOPICS), size=(n, 3))
    return [f"You mentioned {_TOPICS[a]}, {_TOPICS[b]} and {_TOPICS[c]}" for a, b, c in picks]


def _vectors(rng: np.random.Generator, centers: Vectors, n: int) -> tuple[Vectors, np.ndarray]:
    labels = rng.integers(0, len(centers), size=n)
    noise = rng.standard_normal((n, centers.shape[1]), dtype=np.float32) * 0.06
    return normalized(centers[labels] + noise), labels


_SUBJECTS = ("You", "Your sister", "Your partner", "Your team", "Your landlord", "Your doctor")
_VERBS = ("prefer", "avoid", "mentioned", "booked", "planned", "worry about", "started")


def _fact_texts(rng: np.random.Generator, n: int) -> list[str]:
    """Sentences shaped like remembered facts, 6-14 words, from a fixed vocabulary."""
    out = []
    for _ in range(n):
        words = rng.choice(_TOPICS, size=int(rng.integers(2, 6)))
        out.append(
            f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {' and '.join(words[:2])} "
            f"on {rng.choice(('Mondays', 'weekends', 'the 14th', 'holidays'))} "
            + " ".join(words[2:])
        )
    return out


def _insert_facts(store: Store, contents: list[str]) -> list[int]:
    """A person whose personal memory holds these committed facts (no vectors)."""
    with store.write() as session:
        person = create_person(session, "bench")
    assert person.personal_engagement_id is not None
    now = utcnow()
    with store.write() as session:
        session.execute(
            insert(AssertionRow),
            [
                {
                    "engagement_id": person.personal_engagement_id,
                    "display_number": i + 1,
                    "content": content,
                    "actor": ActorKind.COMPANION.value,
                    "force": NormativeForce.COMMITTED.value,
                    "created_at": now,
                    "updated_at": now,
                }
                for i, content in enumerate(contents)
            ],
        )
    return [person.personal_engagement_id]


def run_cold(
    n: int = 10_000, embedder: Embedder | None = None, seed: int = 7, show_progress: bool = True
) -> dict[str, Any]:
    """Time a first search over n facts with no stored vectors; returns the figures."""
    if embedder is None:
        from pipeline.providers.local import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    started = time.perf_counter()
    embedder.embed(["load the model before the clock starts"])
    load_s = time.perf_counter() - started
    contents = _fact_texts(np.random.default_rng(seed), n)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'cold.db'}")
        scope = _insert_facts(store, contents)
        started = time.perf_counter()
        embedded = fill_vectors(store, scope, embedder, show_progress=show_progress)
        with store.write() as session:
            hits = search_memory(session, scope, "what do I avoid on weekends?", embedder)
        cold_s = time.perf_counter() - started
        started = time.perf_counter()
        with store.write() as session:
            search_memory(session, scope, "what do I avoid on weekends?", embedder)
        warm_s = time.perf_counter() - started
        store.dispose()
    return {
        "cold_s": round(cold_s, 2),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "n": n,
        "embedded": embedded,
        "per_fact_ms": round(cold_s / max(1, embedded) * 1000, 3),
        "warm_s": round(warm_s, 3),
        "hits": len(hits),
        "load_s": round(load_s, 3),
    }


def _seed(store: Store, vectors: Vectors, contents: list[str], ages_days: np.ndarray) -> list[int]:
    with store.write() as session:
        person = create_person(session, "bench")
    assert person.personal_engagement_id is not None
    now = utcnow()
    rows = [
        {
            "engagement_id": person.personal_engagement_id,
            "display_number": i + 1,
            "content": contents[i],
            "actor": ActorKind.COMPANION.value,
            "force": NormativeForce.COMMITTED.value,
            "created_at": now - timedelta(days=float(ages_days[i])),
            "updated_at": now,
        }
        for i in range(len(contents))
    ]
    with store.write() as session:
        session.execute(insert(AssertionRow), rows)
        ids = [
            r.assertion_id
            for r in repo.embedded_assertions(session, [person.personal_engagement_id], MODEL)
        ]
        insert_vectors(session, ids, contents, vectors, MODEL, now)
    return [person.personal_engagement_id]


def insert_vectors(
    session: Session,
    ids: Sequence[int],
    contents: Sequence[str],
    vectors: Vectors,
    model: str,
    now: datetime,
) -> None:
    """Store the i-th vector as the i-th fact's embedding by `model`, in one statement."""
    session.execute(
        insert(AssertionEmbeddingRow),
        [
            {
                "assertion_id": aid,
                "model": model,
                "embedder": model,
                "dim": int(vectors.shape[1]),
                "content_sha256": content_sha256(contents[i]),
                "vector": to_bytes(vectors[i]),
                "created_at": now,
            }
            for i, aid in enumerate(ids)
        ],
    )


def _load_index(store: Store, engagement_ids: list[int]) -> MemoryIndex:
    with store.read() as session:
        rows = repo.embedded_assertions(session, engagement_ids, MODEL)
    blob = b"".join(r.stored.vector for r in rows if r.stored is not None)
    matrix = np.frombuffer(blob, dtype="<f4").reshape(len(rows), DIM).astype(np.float32)
    return MemoryIndex(matrix, [r.created_at for r in rows], [r.content for r in rows])


def _brute_force(
    index: MemoryIndex, query: str, vector: Vectors, now: datetime, k: int
) -> list[int]:
    """The exact top k, computed row by row from the formula (the reference for recall)."""
    keyword = index.keyword_fraction(query)
    scored = []
    for i in range(len(index)):
        cosine = float(np.dot(index.vectors[i], vector))
        similarity = cosine + 0.5 * float(keyword[i]) * (1 - cosine)
        if similarity < MIN_SIMILARITY:
            continue
        age = max(now.timestamp() - index.created_s[i], 0.0) / 86_400
        final = (1 - RECENCY_WEIGHT) * similarity + RECENCY_WEIGHT / (1 + RECENCY_RATE * age)
        scored.append((-final, i))
    return [i for _, i in sorted(scored)[:k]]


def run(
    n: int = 100_000, queries: int = 200, recall_queries: int = 5, seed: int = 7
) -> dict[str, Any]:
    """Measure; returns the figures keyed as the issue names them."""
    rng = np.random.default_rng(seed)
    centers = normalized(rng.standard_normal((max(1, n // 100), DIM), dtype=np.float32))
    vectors, _ = _vectors(rng, centers, n)
    contents = _contents(rng, n)
    ages = rng.uniform(0, 730, size=n)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        started = time.perf_counter()
        engagements = _seed(store, vectors, contents, ages)
        store_s = time.perf_counter() - started
        started = time.perf_counter()
        index = _load_index(store, engagements)
        index_s = time.perf_counter() - started
        store.dispose()
    query_vectors, _ = _vectors(rng, centers, queries)
    query_texts = [" ".join(rng.choice(_TOPICS, size=2)) for _ in range(queries)]
    now = utcnow()
    for i in range(min(10, queries)):
        index.top(query_texts[i], query_vectors[i], now, 5)
    timings = []
    results = []
    for i in range(queries):
        begun = time.perf_counter()
        found = index.top(query_texts[i], query_vectors[i], now, 5)
        timings.append((time.perf_counter() - begun) * 1000)
        results.append([row for row, _, _ in found])
    overlaps = []
    for i in range(min(recall_queries, queries)):
        exact = _brute_force(index, query_texts[i], query_vectors[i], now, 5)
        overlaps.append(len(set(exact) & set(results[i])) / max(1, len(exact)))
    ordered = sorted(timings)
    return {
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "median_ms": round(statistics.median(timings), 3),
        "n": n,
        "queries": queries,
        "recall_at_5": round(float(np.mean(overlaps)) if overlaps else 1.0, 4),
        "store_s": round(store_s, 3),
        "index_s": round(index_s, 3),
    }
