"""`converse bench eval`: the runner's own overhead, with no model time to hide it.

Two measurements in one run: throughput over scripted answers (everything but the model: suite
work items, scoring, a row appended and flushed per case, the answer cache), and concurrency
against a provider that sleeps a fixed time per case, compared with the ideal
cases x latency / concurrency.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from evals.bench.fixtures import FixedLatency, suite_file
from evals.dataset import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.providers import (
    ProviderOptions,
    Providers,
    ProviderSpec,
    ScriptedProvider,
    ScriptEntry,
)


def _scripted_registry(n: int) -> dict[str, ProviderSpec]:
    entries = [
        ScriptEntry(
            message=f"I prefer working in the mornings, variant {i}",
            intent="remember_about_me",
            params={"personal_fact": "You prefer working in the mornings"},
        )
        for i in range(n)
    ]
    provider = ScriptedProvider(entries)

    def factory(options: ProviderOptions) -> Providers:
        return Providers(
            provider, provider, "scripted (fixture answers, not a model)", model=provider.model
        )

    return {"scripted": ProviderSpec("scripted", factory, "scripted answers")}


def _latency_registry(seconds: float) -> dict[str, ProviderSpec]:
    provider = FixedLatency(seconds)

    def factory(options: ProviderOptions) -> Providers:
        return Providers(
            provider,
            provider,
            f"fixed-latency ({seconds * 1000:.0f} ms sleep, not a model)",
            model=provider.model,
        )

    return {"fixed-latency": ProviderSpec("fixed-latency", factory, "a sleep, not a model")}


def run(
    cases: int = 1000,
    latency_cases: int = 160,
    latency_ms: float = 200.0,
    concurrency: int = 16,
    runs_url: str | None = None,
    store_cases: int = 10_000,
    store_latency_ms: float = 0.0,
) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them. With `runs_url`, `store_cases` scripted
    cases run twice more without the answer cache, without and with the run store at that
    URL."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        throughput = load_suite(suite_file(root, "bench_throughput", cases))
        started = time.perf_counter()
        out = run_eval(
            EvalOptions(
                RunConfig([throughput], ["scripted"], concurrency=4),
                root=root,
                progress=False,
                registry=_scripted_registry(cases),
            )
        )
        throughput_s = time.perf_counter() - started
        assert out.tally.passed == cases, out.tally

        slow = load_suite(suite_file(root, "bench_latency", latency_cases))
        started = time.perf_counter()
        out = run_eval(
            EvalOptions(
                RunConfig([slow], ["fixed-latency"], concurrency=concurrency, use_cache=False),
                root=root,
                progress=False,
                registry=_latency_registry(latency_ms / 1000),
            )
        )
        wall = time.perf_counter() - started
        assert out.tally.passed == latency_cases, out.tally
    ideal = latency_cases * latency_ms / 1000 / concurrency
    store: dict[str, Any] = {}
    if runs_url:
        from evals.bench.store import store_overhead

        store = store_overhead(store_cases, runs_url, store_latency_ms)
    return store | {
        "cases_per_s": round(cases / throughput_s, 1),
        "throughput_wall_s": round(throughput_s, 3),
        "overhead_ratio": round(wall / ideal, 3),
        "latency_wall_s": round(wall, 3),
        "latency_ideal_s": round(ideal, 3),
        "n": cases,
        "latency_cases": latency_cases,
        "latency_ms": latency_ms,
        "concurrency": concurrency,
    }
