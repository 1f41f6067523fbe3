"""The local and search benchmarks run end to end on small sizes and report their keys."""

from __future__ import annotations

from typing import Any

import pytest

from evals.bench import local as local_bench
from evals.bench import search as search_bench
from pipeline.store.ann import available


def test_search_bench_reports_p95_n_and_exact_recall() -> None:
    figures = search_bench.run(n=2_000, queries=20, recall_queries=3)
    assert figures["n"] == 2_000
    assert figures["p95_ms"] > 0
    assert figures["recall_at_5"] == 1.0


@pytest.mark.skipif(not available(), reason="usearch is not installed (the ann extra)")
def test_scaled_search_bench_reports_index_figures_against_exact_search(
    fake_embedder: Any,
) -> None:
    from evals.bench import search_scale

    figures = search_scale.run(n=3_000, queries=20, real_n=200, store_n=300, embedder=fake_embedder)
    assert {"p95_ms", "recall_at_5", "build_s", "peak_mb", "n", "query_p95_ms"} <= set(figures)
    assert figures["n"] == 3_000 and figures["real_n"] == 200 and figures["query_n"] == 300
    assert figures["recall_at_5"] >= 0.95 and figures["real_recall_at_5"] >= 0.95
    assert figures["vectors"].startswith("synthetic")
    assert figures["peak_mb"] > 0 and figures["build_s"] >= 0


@pytest.mark.slow
def test_local_bench_reports_median_and_load_time() -> None:
    figures = local_bench.run(n=10, warmup=2)
    assert figures["n"] == 10
    assert figures["median_ms"] > 0
    assert figures["load_s"] > 0


def test_cold_search_bench_embeds_every_fact_and_reports_time_and_peak_memory(
    fake_embedder: Any,
) -> None:
    figures = search_bench.run_cold(n=600, embedder=fake_embedder, show_progress=False)
    assert {"cold_s", "peak_mb", "n", "embedded", "warm_s", "load_s"} <= set(figures)
    assert figures["n"] == figures["embedded"] == 600
    assert figures["cold_s"] > 0 and figures["peak_mb"] > 0
    assert figures["hits"] > 0
    assert len(fake_embedder.embedded) == 600 + 1 + 2  # the facts, the warm-up, two queries
