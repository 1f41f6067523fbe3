"""Compare approximate nearest-neighbour libraries for memory search (docs/benchmarks.md).

usage: python scripts/compare_ann.py [--n 100000] [--real PATH.npy]

Needs usearch, hnswlib and faiss-cpu installed (none is a default dependency). For each
library and setting: build time on all cores, p95 latency of one query on one thread, recall@5
of the index's own top 5 against exact cosine search, and recall@5 after the top 50 are
re-scored with the float32 vectors (what `search_memory` does). Vectors are synthetic
clustered unit vectors (as `converse bench search` makes), or a saved matrix of real
embeddings with `--real` (its last 200 rows are the queries).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from evals.bench.search import DIM, _vectors
from pipeline.memory.embeddings import normalized

K = 5
CANDIDATES = 50
EFS = (64, 128)
Search = Callable[[np.ndarray, int, int], np.ndarray]


def exact_top(base: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """Exact top k by cosine (the reference)."""
    scores = queries @ base.T
    top = np.argpartition(-scores, k, axis=1)[:, :k]
    return top


def measure(
    name: str, build: Callable[[], Search], base: np.ndarray, queries: np.ndarray, truth: np.ndarray
) -> None:
    """Build once, then query one at a time at each search breadth; prints the figures."""
    started = time.perf_counter()
    search = build()
    build_s = time.perf_counter() - started
    for ef in EFS:
        for q in queries[:20]:
            search(q, CANDIDATES, ef)
        timings, direct, rescored = [], [], []
        for i, q in enumerate(queries):
            begun = time.perf_counter()
            found = search(q, CANDIDATES, ef)
            timings.append((time.perf_counter() - begun) * 1000)
            direct.append(len(set(found[:K].tolist()) & set(truth[i].tolist())) / K)
            found = found[found >= 0]
            best = found[np.argsort(-(base[found] @ q))[:K]]
            rescored.append(len(set(best.tolist()) & set(truth[i].tolist())) / K)
        row = {
            "index": f"{name} ef={ef}",
            "build_s": round(build_s, 1),
            "median_ms": round(float(np.median(timings)), 3),
            "p95_ms": round(float(np.percentile(timings, 95)), 3),
            "recall_at_5": round(float(np.mean(direct)), 3),
            "recall_at_5_rescored": round(float(np.mean(rescored)), 3),
        }
        print(json.dumps(row), flush=True)


def usearch_index(base: np.ndarray, dtype: str) -> Callable[[], Search]:
    """usearch HNSW, cosine, vectors stored as `dtype`."""

    def build() -> Search:
        from usearch.index import Index

        index = Index(
            ndim=base.shape[1], metric="cos", dtype=dtype, connectivity=16, expansion_add=128
        )
        index.add(np.arange(len(base)), base, threads=2)

        def search(q: np.ndarray, count: int, ef: int) -> np.ndarray:
            index.expansion_search = ef
            return np.asarray(index.search(q, count, threads=1).keys, dtype=np.int64)

        return search

    return build


def hnswlib_index(base: np.ndarray) -> Callable[[], Search]:
    """hnswlib HNSW, inner product on unit vectors (float32 only)."""

    def build() -> Search:
        import hnswlib

        index = hnswlib.Index(space="ip", dim=base.shape[1])
        index.init_index(max_elements=len(base), ef_construction=128, M=16)
        index.set_num_threads(2)
        index.add_items(base, np.arange(len(base)))
        index.set_num_threads(1)

        def search(q: np.ndarray, count: int, ef: int) -> np.ndarray:
            index.set_ef(max(ef, count))
            labels, _ = index.knn_query(q, k=count)
            return labels[0].astype(np.int64)

        return search

    return build


def faiss_index(base: np.ndarray, kind: str) -> Callable[[], Search]:
    """faiss HNSW, inner product; f16 and i8 through its scalar quantizer."""

    def build() -> Search:
        import faiss

        faiss.omp_set_num_threads(2)
        if kind == "f32":
            index = faiss.IndexHNSWFlat(base.shape[1], 16, faiss.METRIC_INNER_PRODUCT)
        else:
            quantizer = faiss.ScalarQuantizer
            qtype = quantizer.QT_fp16 if kind == "f16" else quantizer.QT_8bit
            index = faiss.IndexHNSWSQ(base.shape[1], qtype, 16, faiss.METRIC_INNER_PRODUCT)
            index.train(base)
        index.hnsw.efConstruction = 128
        index.add(base)
        faiss.omp_set_num_threads(1)

        def search(q: np.ndarray, count: int, ef: int) -> np.ndarray:
            index.hnsw.efSearch = max(ef, count)
            _, labels = index.search(q.reshape(1, -1), count)
            return labels[0].astype(np.int64)

        return search

    return build


def main() -> None:
    """Run every setting and print one JSON row each."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--real", default=None)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    if args.real:
        data = np.load(args.real).astype(np.float32)
        base, queries = data[: -args.queries], data[-args.queries :]
    else:
        centers = normalized(rng.standard_normal((max(1, args.n // 100), DIM), dtype=np.float32))
        base, _ = _vectors(rng, centers, args.n)
        queries, _ = _vectors(rng, centers, args.queries)
    truth = exact_top(base, queries, K)
    print(json.dumps({"n": len(base), "queries": len(queries), "real": bool(args.real)}))
    settings: list[tuple[str, Callable[[], Search]]] = []
    for dtype in ("f32", "f16", "i8"):
        settings.append((f"usearch {dtype}", usearch_index(base, dtype)))
    settings.append(("hnswlib f32", hnswlib_index(base)))
    for kind in ("f32", "f16", "i8"):
        settings.append((f"faiss HNSW {kind}", faiss_index(base, kind)))
    for name, build in settings:
        if args.only and args.only not in name:
            continue
        measure(name, build, base, queries, truth)


if __name__ == "__main__":
    main()
