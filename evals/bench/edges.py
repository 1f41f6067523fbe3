"""`converse bench edges`: what relating a committed personal fact to its neighbours costs, per
edge, when the person has many facts (specification 004: edge creation <= 2 ms an edge).

A temporary SQLite store gets one person with `n` committed personal facts and stored 384-d
vectors — synthetic, clusters of unit vectors tight enough that a fact's cluster-mates pass
link_min, so each link finds real neighbours; what linking costs does not depend on where
the vectors came from. At n >= CONVERSE_RELATIONS_INDEX_MIN the candidates come from the
nearest-neighbour index, built on the first link (`build_s`, not counted); below it from every
stored vector. Then `links` facts are linked one after another, each in its own write
transaction as a turn's handler does (`link_memory`: read the fact, its stored vector, the
neighbours, insert the edges and their LINK history rows); the commit is not timed.
`edge_ms` is a link's time divided by the edges it made, over the links that made one.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import insert, select

from evals.bench.output import machine, percentile
from evals.bench.search import insert_vectors
from pipeline.clock import utcnow
from pipeline.domain import ActorKind, HistoryActor, NormativeForce
from pipeline.memory.embeddings import Vectors, normalized
from pipeline.memory.relations import link_memory, relation_settings
from pipeline.store import AssertionRow, Store, ann, count_edges, create_person, open_store

DIM = 384
MODEL = "bench-synthetic-384"
# Per-dimension noise around a cluster's centre: two members' cosine is about
# 1 / (1 + DIM * NOISE**2) = 0.74, above link_min (0.50); two clusters' near 0.
NOISE = 0.03
PER_CLUSTER = 20


class SyntheticEmbedder:
    """Names the bench's model; every fact's vector is stored, so `embed` only serves a text
    the store lacks (none here), from the same clusters."""

    model_name = MODEL
    dim = DIM

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Random unit vectors (never asked for in this bench)."""
        rng = np.random.default_rng(len(texts))
        return normalized(rng.standard_normal((len(texts), DIM)).astype(np.float32))


def _vectors(rng: np.random.Generator, n: int) -> Vectors:
    centers = normalized(rng.standard_normal((max(1, n // PER_CLUSTER), DIM)).astype(np.float32))
    labels = rng.integers(0, len(centers), size=n)
    noise = rng.standard_normal((n, DIM)).astype(np.float32) * NOISE
    return normalized(centers[labels] + noise)


def _seed(store: Store, n: int, rng: np.random.Generator) -> list[int]:
    """One person with n committed personal facts and their stored vectors; their ids."""
    with store.write() as session:
        person = create_person(session, "bench")
    engagement = person.personal_engagement_id
    assert engagement is not None
    now = utcnow()
    contents = [f"You mentioned fact {i} about your week" for i in range(n)]
    vectors = _vectors(rng, n)
    with store.write() as session:
        session.execute(
            insert(AssertionRow),
            [
                {
                    "engagement_id": engagement,
                    "display_number": i + 1,
                    "content": content,
                    "actor": ActorKind.COMPANION.value,
                    "force": NormativeForce.COMMITTED.value,
                    "created_at": now,
                    "updated_at": now,
                    "last_accessed_at": now,
                }
                for i, content in enumerate(contents)
            ],
        )
        ids = list(
            session.scalars(
                select(AssertionRow.id)
                .where(AssertionRow.engagement_id == engagement)
                .order_by(AssertionRow.display_number)
            )
        )
        insert_vectors(session, ids, contents, vectors, MODEL, now)
    return ids


def run(n: int = 10_000, links: int = 300, seed: int = 7) -> dict[str, Any]:
    """Measure; returns the figures keyed as the issue names them."""
    rng = np.random.default_rng(seed)
    embedder = SyntheticEmbedder()
    settings = relation_settings()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'edges.db'}")
        try:
            ids = _seed(store, n, rng)
            picked = [int(i) for i in rng.choice(ids, size=min(links + 1, n), replace=False)]
            began = time.perf_counter()
            with store.write() as session:  # the first link builds the index at scale
                link_memory(session, picked[0], embedder, by=HistoryActor.SYSTEM)
            build_s = time.perf_counter() - began
            link_ms: list[float] = []
            edge_ms: list[float] = []
            made = 0
            for fact in picked[1:]:
                with store.write() as session:
                    start = time.perf_counter()
                    found = link_memory(session, fact, embedder, by=HistoryActor.SYSTEM)
                    elapsed = (time.perf_counter() - start) * 1000
                link_ms.append(elapsed)
                made += len(found)
                if found:
                    edge_ms.append(elapsed / len(found))
            with store.read() as session:
                stored = count_edges(session)
        finally:
            store.dispose()
    return {
        "n": n,
        "links": len(link_ms),
        "edges_made": made,
        "edges_stored": stored,
        "edge_ms": round(statistics.median(edge_ms), 3) if edge_ms else None,
        "edge_p95_ms": round(percentile(edge_ms, 95), 3) if edge_ms else None,
        "link_ms": round(statistics.median(link_ms), 3),
        "link_p95_ms": round(percentile(link_ms, 95), 3),
        "path": "ann" if ann.available() and n >= settings.index_min else "exact",
        "build_s": round(build_s, 3),
        "top_k": settings.top_k,
        "link_min": settings.link_min,
        "machine": machine(),
    }
