"""`converse bench search --n N`: memory search through the nearest-neighbour index at scale.

Three measurements, each against exact search over the same vectors:

- n synthetic vectors (clusters of 384-d unit vectors, as many as one person could never
  type: no store holds them, so they are made in memory) go into the index the store uses
  (`pipeline/store/ann.py`, same settings), timed as `build_s`. Each query asks the index for
  CONVERSE_ANN_CANDIDATES neighbours and re-scores them exactly with their float32 vectors, as
  `search_memory` does with the candidates' stored vectors; `p95_ms` is that per query on one
  thread, `recall_at_5` the share of the exact cosine top 5 found. `peak_mb` is the process's
  peak resident memory (the float32 copy kept for the reference included), `index_mb` the
  index's own.
- `real_n` fact-shaped sentences embedded by the real model (all-MiniLM-L6-v2), indexed and
  queried the same way with other sentences: `real_recall_at_5`, `real_p95_ms`.
- `query_p95_ms`: the whole `search_memory` call (the change-log check, the index, the
  candidates' rows read from a SQLite store and filtered by engagement, force and deletion,
  keyword and recency scoring) for a person with 10,000 stored memories; `query_exact_p95_ms`
  is the same search with the index turned off.
"""

from __future__ import annotations

import hashlib
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from evals.bench.search import DIM, MODEL, _contents, _fact_texts, _seed, _vectors
from pipeline.memory.embeddings import Embedder, Vectors, normalized
from pipeline.memory.search import search_memory
from pipeline.store import ann, open_store

K = 5
_CHUNK = 100_000


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def clustered(rng: np.random.Generator, n: int, centers: Vectors) -> Vectors:
    """n unit vectors around the centers, made a chunk at a time to bound memory."""
    out = np.empty((n, centers.shape[1]), dtype=np.float32)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        out[start:stop] = _vectors(rng, centers, stop - start)[0]
    return out


def exact_top(base: Vectors, queries: Vectors, k: int = K) -> list[set[int]]:
    """The exact top k by cosine of each query (the reference), in chunks of the base."""
    best_scores = np.full((len(queries), 0), -np.inf, dtype=np.float32)
    best_ids = np.zeros((len(queries), 0), dtype=np.int64)
    for start in range(0, len(base), _CHUNK):
        scores = queries @ base[start : start + _CHUNK].T
        ids = np.broadcast_to(np.arange(start, start + scores.shape[1]), scores.shape)
        scores = np.concatenate([best_scores, scores], axis=1)
        ids = np.concatenate([best_ids, ids], axis=1)
        keep = np.argpartition(-scores, min(k, scores.shape[1] - 1), axis=1)[:, :k]
        best_scores = np.take_along_axis(scores, keep, axis=1)
        best_ids = np.take_along_axis(ids, keep, axis=1)
    return [set(row.tolist()) for row in best_ids]


def _index_of(vectors: Vectors, dtype: ann.Dtype) -> tuple[ann.VectorIndex, float]:
    dim = int(vectors.shape[1])
    index = ann.VectorIndex(engagement_id=0, model=MODEL, embedder=MODEL, dim=dim, dtype=dtype)
    started = time.perf_counter()
    index.index.add(np.arange(len(vectors), dtype=np.uint64), vectors, threads=os.cpu_count())
    return index, time.perf_counter() - started


def _measure(
    index: ann.VectorIndex, base: Vectors, queries: Vectors, candidates: int
) -> tuple[float, float]:
    """(p95 ms, recall@5) of index search plus exact re-scoring of the candidates."""
    truth = exact_top(base, queries)
    for q in queries[:10]:
        index.search(q, candidates)
    timings, found = [], []
    for q in queries:
        begun = time.perf_counter()
        ids = np.asarray(index.search(q, candidates), dtype=np.int64)
        best = ids[np.argsort(-(base[ids] @ q))[:K]]
        timings.append((time.perf_counter() - begun) * 1000)
        found.append(set(best.tolist()))
    recall = statistics.mean(len(f & t) / K for f, t in zip(found, truth, strict=True))
    return _percentile(timings, 95), recall


def run(
    n: int = 1_000_000,
    queries: int = 200,
    real_n: int = 5_000,
    store_n: int = 10_000,
    seed: int = 7,
    embedder: Embedder | None = None,
) -> dict[str, Any]:
    """Measure; returns the figures keyed as the issue names them."""
    settings = ann.ann_settings()
    rng = np.random.default_rng(seed)
    centers = normalized(rng.standard_normal((max(1, n // 100), DIM), dtype=np.float32))
    base = clustered(rng, n, centers)
    asked = clustered(rng, queries, centers)
    index, build_s = _index_of(base, settings.dtype)
    p95_ms, recall = _measure(index, base, asked, settings.candidates)
    figures: dict[str, Any] = {
        "p95_ms": round(p95_ms, 3),
        "recall_at_5": round(recall, 4),
        "build_s": round(build_s, 1),
        "peak_mb": 0.0,
        "index_mb": round(index.index.memory_usage / 2**20, 1),
        "n": n,
        "queries": queries,
        "vectors": f"synthetic: {len(centers):,} clusters of {DIM}-d unit vectors",
        "dtype": settings.dtype,
        "candidates": settings.candidates,
        "expansion": settings.expansion,
    }
    del index, base
    if real_n:
        figures |= _real(real_n, queries, settings, seed, embedder)
    if store_n:
        figures |= _through_store(store_n, queries, seed)
    figures["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return figures


def _real(
    n: int, queries: int, settings: ann.AnnSettings, seed: int, embedder: Embedder | None
) -> dict[str, Any]:
    """The same measurement on sentences embedded by the real model."""
    if embedder is None:
        from pipeline.providers.local import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    texts = _fact_texts(np.random.default_rng(seed + 1), n + queries)
    vectors = np.concatenate(
        [embedder.embed(texts[i : i + 256]) for i in range(0, len(texts), 256)]
    ).astype(np.float32)
    index, _ = _index_of(vectors[:n], settings.dtype)
    p95_ms, recall = _measure(index, vectors[:n], vectors[n:], settings.candidates)
    return {"real_p95_ms": round(p95_ms, 3), "real_recall_at_5": round(recall, 4), "real_n": n}


class SyntheticEmbedder:
    """Stands in for the model in the store measurement: each text gets a vector near one of
    the stored clusters (the stored vectors were made the same way, not by this class)."""

    model_name = MODEL
    dim = DIM

    def __init__(self, centers: Vectors) -> None:
        self.centers = centers

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One vector per text, near the cluster its hash picks."""
        rows = []
        for text in texts:
            digest = int(hashlib.sha256(text.encode()).hexdigest(), 16)
            rng = np.random.default_rng(digest % 2**32)
            center = self.centers[digest % len(self.centers)]
            rows.append(center + rng.standard_normal(DIM).astype(np.float32) * 0.06)
        return normalized(np.array(rows))


@contextmanager
def _threshold(value: int) -> Iterator[None]:
    # sets the setting for the store code it measures, which reads it as a person's would be
    before = os.environ.get("CONVERSE_ANN_MIN_VECTORS")
    os.environ["CONVERSE_ANN_MIN_VECTORS"] = str(value)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("CONVERSE_ANN_MIN_VECTORS", None)
        else:
            os.environ["CONVERSE_ANN_MIN_VECTORS"] = before


def _through_store(n: int, queries: int, seed: int) -> dict[str, Any]:
    """search_memory for a person with n memories in SQLite, with and without the index."""
    rng = np.random.default_rng(seed + 2)
    centers = normalized(rng.standard_normal((max(1, n // 100), DIM), dtype=np.float32))
    vectors, _ = _vectors(rng, centers, n)
    contents = _contents(rng, n)
    embedder = SyntheticEmbedder(centers)
    asked = [f"what about {c.split(' ', 2)[2]}?" for c in _contents(rng, queries)]
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        engagements = _seed(store, vectors, contents, rng.uniform(0, 730, size=n))
        for key, threshold in (("query_p95_ms", 1), ("query_exact_p95_ms", n + 1)):
            ann.forget_open()
            with _threshold(threshold), store.write() as session:
                search_memory(session, engagements, asked[0], embedder)  # builds the index
            timings = []
            with _threshold(threshold):
                for query in asked:
                    begun = time.perf_counter()
                    with store.write() as session:
                        search_memory(session, engagements, query, embedder)
                    timings.append((time.perf_counter() - begun) * 1000)
            figures[key] = round(_percentile(timings, 95), 3)
        ann.forget_open()
        store.dispose()
    figures["query_n"] = n
    return figures
