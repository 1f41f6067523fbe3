"""`converse bench eval --runs-url URL`: what the run store costs a run, at `store_cases` rows.

The same scripted classify cases run twice on fresh folders, without and with the run store at
URL. By default the provider answers at once (`Instant`), so the run is the runner's own work —
work items, scoring, a row appended and fsynced per case — with no model time to hide the
store behind: the worst case. With `latency_ms`, every answer takes that long (a sleep, as a
model call would), and the wall times say what the store adds to such a run. Times are CPU
seconds where the machine is shared: wall times move with other work, CPU seconds of the
threads that did the work hardly do.

- `runs_store_overhead_pct`: the CPU seconds spent in the store — opening it, the workers' calls
  (`on_row`), the background writer's inserts and the final levelling — over the CPU seconds of
  the run without it. The runner is CPU-bound and holds the GIL, so on an idle machine its wall
  time is its CPU time, and this is the share of wall time the store adds at most (the writer
  overlaps waits of the workers, such as each row's fsync, so it can cost less);
- `store_cpu_delta_pct`: the whole process's CPU seconds with the store over those without
  (every thread; a second estimate that includes everything the store causes);
- `store_plain_wall_s`, `store_wall_s`, `store_wall_delta_pct`: the wall times, for reference.
"""

from __future__ import annotations

import tempfile
import threading
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
)


class Instant(FixedLatency):
    """A classifier that answers every bench case rightly after `seconds` (0: at once; not a
    model)."""

    name = "instant"
    model = "instant"


def _registry(seconds: float) -> dict[str, ProviderSpec]:
    provider = Instant(seconds)

    def factory(options: ProviderOptions) -> Providers:
        return Providers(
            provider, provider, "instant (fixed answers, not a model)", model="instant"
        )

    return {"instant": ProviderSpec("instant", factory, "fixed answers, not a model")}


def _timed(
    cases: int, root: Path, seconds: float, open_recorder: Any = None
) -> tuple[float, float, Any]:
    """Wall and process CPU seconds of one run — with the store opened by `open_recorder` and
    levelled after it, when given — and the recorder."""
    # suite files are capped at 2 MB: 2,500 cases a file
    suites = [
        load_suite(suite_file(root, f"bench_store_{i}", min(2500, cases - i * 2500), i * 2500))
        for i in range((cases + 2499) // 2500)
    ]
    started, cpu = time.perf_counter(), time.process_time()
    recorder = open_recorder() if open_recorder is not None else None
    out = run_eval(
        EvalOptions(
            RunConfig(suites, ["instant"], concurrency=4, use_cache=False),
            root=root,
            progress=False,
            registry=_registry(seconds),
            on_row=recorder.on_row if recorder is not None else None,
        )
    )
    if recorder is not None:
        recorder.finish(out.run.run_id)
    assert out.tally.passed == cases, out.tally
    return time.perf_counter() - started, time.process_time() - cpu, recorder


class _Timed:
    """A recorder whose every call into the store is timed: CPU seconds of the calling thread,
    summed over threads."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.cpu = 0.0
        self._lock = threading.Lock()

    def _time(self, call: Any, *args: Any) -> None:
        started = time.thread_time()
        call(*args)
        spent = time.thread_time() - started
        with self._lock:
            self.cpu += spent

    def on_row(self, row: dict[str, Any], text: str | None = None) -> None:
        self._time(self.recorder.on_row, row, text)

    def finish(self, run_id: str) -> None:
        self._time(self.recorder.finish, run_id)


def store_overhead(cases: int, url: str, latency_ms: float = 0.0) -> dict[str, Any]:
    """Run without and with the store at `url`, each answer taking `latency_ms`; figures keyed
    as docs/benchmarks.md names them."""
    from evals.runstore import RunRecorder, RunStore

    opened: dict[str, Any] = {}

    def open_recorder() -> _Timed:
        cpu = time.thread_time()
        opened["store"] = RunStore(url)
        opened["cpu"] = time.thread_time() - cpu
        return _Timed(RunRecorder(opened["store"], Path(b)))

    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        plain_wall, plain_cpu, _ = _timed(cases, Path(a), latency_ms / 1000)
        stored_wall, stored_cpu, timed = _timed(cases, Path(b), latency_ms / 1000, open_recorder)
        assert timed.recorder.failed is None, timed.recorder.failed
    store, open_cpu = opened["store"], opened["cpu"]
    in_store = open_cpu + timed.cpu + store.busy_cpu
    return {
        "store_plain_wall_s": round(plain_wall, 3),
        "store_wall_s": round(stored_wall, 3),
        "store_plain_cpu_s": round(plain_cpu, 3),
        "store_cpu_s": round(in_store, 3),
        "store_open_cpu_s": round(open_cpu, 3),
        "store_on_row_and_finish_cpu_s": round(timed.cpu, 3),
        "store_writer_cpu_s": round(store.busy_cpu, 3),
        "store_writer_wall_s": round(store.busy, 3),
        "runs_store_overhead_pct": round(in_store / plain_cpu * 100, 1),
        "store_cpu_delta_pct": round((stored_cpu - plain_cpu) / plain_cpu * 100, 1),
        "store_wall_delta_pct": round((stored_wall - plain_wall) / plain_wall * 100, 1),
        "store_backend": url.split(":", 1)[0],
        "store_rows": cases,
        "store_latency_ms": latency_ms,
    }
