"""The local and search benchmarks run end to end on small sizes and report their keys."""

from __future__ import annotations

import pytest

from evals.bench import local as local_bench
from evals.bench import search as search_bench


def test_search_bench_reports_p95_n_and_exact_recall() -> None:
    figures = search_bench.run(n=2_000, queries=20, recall_queries=3)
    assert figures["n"] == 2_000
    assert figures["p95_ms"] > 0
    assert figures["recall_at_5"] == 1.0


@pytest.mark.slow
def test_local_bench_reports_median_and_load_time() -> None:
    figures = local_bench.run(n=10, warmup=2)
    assert figures["n"] == 10
    assert figures["median_ms"] > 0
    assert figures["load_s"] > 0
