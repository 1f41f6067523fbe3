"""`converse bench load`: memory of a live run with many cases in flight, on the loopback path.

Classify runs of each size in `sizes` go through the real runner and the real SDK client at
`concurrency` cases at a time against the loopback server (synthetic answers, `latency` seconds
each, no rate limits), one after another in this process. A sampler thread reads the process's
resident memory every 0.1 s. Per size: the peak while cases run (`peak_mb_<n>`), the resident
memory before the suite is written and loaded and once it is (`rss_mb_<n>_before`,
`..._suite_loaded`: the suite's cases are held for the run by design), when a quarter and when
all of the rows are written (`rss_mb_<n>_at_25pct`, `..._at_100pct`), and the difference of the
last two (`growth_mb_<n>`): flat memory is a growth that does not scale with the cases. The
rows read back at the end for the summary are not part of the run's flight, and
`peak_mb_<n>_with_summary` says what reading them costs. The loopback server runs
in this process too (its log of requests is a few bytes a call).
"""

from __future__ import annotations

import gc
import os
import resource
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from evals.bench.ratelimit import OK, config_for, suite_file
from evals.loopback import LoopbackServer
from evals.runner import EvalOptions, run_eval

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """The process's resident memory now, in MB (from /proc; the peak where /proc is absent)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * _PAGE / 1024 / 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Sampler:
    """The highest resident memory seen since the last `reset`, sampled on a thread."""

    def __init__(self, every: float = 0.1) -> None:
        self.every = every
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb())
            self._stop.wait(self.every)

    def reset(self) -> None:
        """Start a new peak from now."""
        self.peak = rss_mb()

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _one(n: int, concurrency: int, latency: float, sampler: Sampler) -> dict[str, Any]:
    marks: dict[str, float] = {}
    written = 0
    lock = threading.Lock()

    def on_row(_row: dict[str, Any], _text: str) -> None:
        nonlocal written
        with lock:
            written += 1
            if written == max(1, n // 4):
                marks["at_25pct"] = rss_mb()
            if written == n:
                marks["at_100pct"] = rss_mb()
                marks["peak_in_flight"] = max(sampler.peak, marks["at_100pct"])

    gc.collect()
    before = rss_mb()
    with tempfile.TemporaryDirectory() as tmp, LoopbackServer([OK], latency=latency) as server:
        config = config_for(suite_file(Path(tmp), n), server.url, concurrency)
        loaded = rss_mb()
        sampler.reset()
        started = time.monotonic()
        outcome = run_eval(EvalOptions(config, root=Path(tmp), progress=False, on_row=on_row))
        elapsed = time.monotonic() - started
        with_summary = sampler.peak
    statuses = [r["status"] for r in outcome.rows]
    return {
        f"rss_mb_{n}_before": round(before, 1),
        f"rss_mb_{n}_suite_loaded": round(loaded, 1),
        f"peak_mb_{n}": round(marks["peak_in_flight"], 1),
        f"rss_mb_{n}_at_25pct": round(marks["at_25pct"], 1),
        f"rss_mb_{n}_at_100pct": round(marks["at_100pct"], 1),
        f"growth_mb_{n}": round(marks["at_100pct"] - marks["at_25pct"], 1),
        f"peak_mb_{n}_with_summary": round(with_summary, 1),
        f"wall_s_{n}": round(elapsed, 1),
        f"cases_per_s_{n}": round(n / elapsed, 1),
        f"errors_{n}": statuses.count("error"),
        f"scored_wrong_{n}": statuses.count("fail"),
    }


def run(
    sizes: tuple[int, ...] = (1_000, 10_000), concurrency: int = 64, latency: float = 0.05
) -> dict[str, Any]:
    """Run each size; figures keyed by size, and the growth of the largest."""
    figures: dict[str, Any] = {"concurrency": concurrency, "latency_s": latency}
    with Sampler() as sampler:
        for n in sizes:
            figures |= _one(n, concurrency, latency, sampler)
    largest, smallest = max(sizes), min(sizes)
    figures["n"] = largest
    figures["growth_mb"] = figures[f"growth_mb_{largest}"]
    figures["peak_ratio"] = round(figures[f"peak_mb_{largest}"] / figures[f"peak_mb_{smallest}"], 3)
    return figures
