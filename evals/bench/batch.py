"""`converse bench ratelimit --batch`: the rate-limit bench's classify run through Message Batches.

The same suite runs twice against the loopback server (synthetic answers): through batches
(`converse eval --batch`'s runner, the real SDK's batch calls against the loopback's batch
endpoints, which report a batch in progress for `polls` retrievals before it ends), and directly
under the bench's rate limits. Figures: how many batches were submitted and how often they were
polled, the wall time of each run, and whether the rows are equal (everything but the run id,
times, the commit state, the price and the batch mark).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from evals.batch import BatchOptions, run_batch_eval
from evals.bench.ratelimit import OK, config_for, run_with_rows, suite_file
from evals.loopback import LoopbackServer
from evals.runner import EvalOptions

VARYING = frozenset({"run_id", "latency_ms", "finished_at", "git", "cost_usd", "batch"})


def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without what differs between two runs of the same cases by design, in case order."""
    kept = [{k: v for k, v in r.items() if k not in VARYING} for r in rows]
    return sorted(kept, key=lambda r: (r["suite"], r["case_id"], r["epoch"]))


def run(
    cases: int = 2000,
    rpm: int = 120,
    itpm: int = 200_000,
    scale: float = 1.0,
    latency: float = 1.0,
    concurrency: int = 32,
    polls: int = 5,
    poll_seconds: float = 2.0,
) -> dict[str, Any]:
    """Run the cases through batches and directly; figures keyed as the issue names them."""
    with tempfile.TemporaryDirectory() as tmp, LoopbackServer([OK], batch_polls=polls) as server:
        config = config_for(suite_file(Path(tmp), cases), server.url, concurrency)
        started = time.monotonic()
        with open(os.devnull, "w") as quiet:
            outcome = run_batch_eval(
                EvalOptions(config, root=Path(tmp), progress=False, console=Console(file=quiet)),
                BatchOptions(poll_seconds=poll_seconds),
            )
        batch_wall = time.monotonic() - started
        log = server.batches.log
        direct_calls = len(server.seen)
    direct, rows = run_with_rows(cases, rpm, itpm, scale, latency, concurrency)
    ours, theirs = comparable(outcome.rows), comparable(rows)
    differing = abs(len(ours) - len(theirs))
    differing += sum(a != b for a, b in zip(ours, theirs, strict=False))
    # the SDK's results() retrieves the batch once more before reading the file
    polled = sum(log.polls.values()) - sum(log.results_read.values())
    statuses = [r["status"] for r in outcome.rows]
    return {
        "n": len(outcome.rows),
        "batch_submissions": len(log.created),
        "batch_requests": sum(size for _, size in log.created),
        "batch_polls": polled,
        "batch_results_read": sum(log.results_read.values()),
        "loopback_polls_in_progress": polls,
        "poll_seconds": poll_seconds,
        "batch_wall_s": round(batch_wall, 1),
        "batch_direct_calls": direct_calls - sum(size for _, size in log.created),
        "batch_scored_wrong": statuses.count("fail"),
        "batch_errors": statuses.count("error"),
        "direct_wall_s": direct["elapsed_s"],
        "direct_throughput_pct": direct["throughput_pct"],
        "rows_equal": differing == 0,
        "rows_differing": differing,
        "limit_rpm": direct["limit_rpm"],
        "limit_itpm": direct["limit_itpm"],
        "scale": scale,
    }
