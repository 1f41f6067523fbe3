"""`converse bench ratelimit`: a live classify run against a rate-limited loopback server.

The loopback server (synthetic answers) enforces `rpm` requests and `itpm` input tokens a
minute, multiplied by `scale` so a long run fits a short time (the limits and the run shrink in
proportion; the figures say which limits were used), and answers each accepted request after
`latency` seconds. The run goes through the real runner and the real SDK client with its
adaptive pace and concurrency. Figures:

- `throughput_pct`: calls a minute the server accepted, from the first call to the last, over
  the limit that binds (requests, or input tokens at the run's mean tokens a call);
  `steady_throughput_pct` the same after the first minute; `wall_cases_per_min` counts the
  whole command (suite load and provider start included);
- `scored_wrong` (fail rows; every scripted answer is right) and `errors` (rows that errored);
- `refused_429` in all, and `refused_after_first_minute`: calls the server refused as over the
  limit once the client had a minute to learn it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from evals.dataset.load import load_suite
from evals.loopback import Answer, LoopbackServer, RateLimits
from evals.runner import EvalOptions, RunConfig, run_eval

OK = Answer(kind="classify", tool_input={"intent": "general_conversation"})
WORDS = ("garden", "recipe", "train", "meeting", "book", "weather", "guitar", "holiday")


def suite_file(folder: Path, cases: int) -> Path:
    """The bench's classify suite: `cases` distinct messages, every answer right."""
    path = folder / "ratelimit.yaml"
    rows = [
        {
            "id": f"case-{i:05d}",
            "message": f"tell me something about the {WORDS[i % len(WORDS)]} number {i}",
            "expect": {"intent": "general_conversation"},
        }
        for i in range(cases)
    ]
    suite = {"name": "ratelimit", "target": "classify", "description": "bench", "cases": rows}
    path.write_text(yaml.safe_dump(suite, sort_keys=False), encoding="utf-8")
    return path


def config_for(suite: Path, url: str, concurrency: int) -> RunConfig:
    """The bench's run: the suite on live Claude at the loopback, without the answer cache."""
    return RunConfig(
        suites=[load_suite(suite)],
        providers=["claude"],
        concurrency=concurrency,
        use_cache=False,
        provider_options={"claude": {"api_key": "loopback", "base_url": url}},
    )


def run(
    cases: int = 2000,
    rpm: int = 120,
    itpm: int = 200_000,
    scale: float = 1.0,
    latency: float = 1.0,
    concurrency: int = 32,
) -> dict[str, Any]:
    """Run the cases through the limit; figures keyed as the issue names them."""
    return run_with_rows(cases, rpm, itpm, scale, latency, concurrency)[0]


def run_with_rows(
    cases: int = 2000,
    rpm: int = 120,
    itpm: int = 200_000,
    scale: float = 1.0,
    latency: float = 1.0,
    concurrency: int = 32,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`run`, and the run's rows."""
    limit_rpm, limit_itpm = round(rpm * scale), round(itpm * scale)
    limits = RateLimits(limit_rpm, limit_itpm)
    with (
        tempfile.TemporaryDirectory() as tmp,
        LoopbackServer([OK], limits=limits, latency=latency) as server,
    ):
        config = config_for(suite_file(Path(tmp), cases), server.url, concurrency)
        started = time.monotonic()
        outcome = run_eval(EvalOptions(config, root=Path(tmp), progress=False))
        elapsed = time.monotonic() - started
    log = limits.log
    t0 = log[0].at if log else 0.0
    accepted = [v for v in log if v.status == 200]
    mean_tokens = sum(v.tokens for v in accepted) / max(1, len(accepted))
    binding = min(limit_rpm, limit_itpm / mean_tokens) if mean_tokens else limit_rpm
    later = [v for v in accepted if v.at - t0 >= 60]
    span = (max(v.at for v in later) - t0 - 60) if later else 0.0
    # the server's view: accepted calls over the time from the first call to the last
    served = (accepted[-1].at - t0) if len(accepted) > 1 else 0.0
    per_min = (len(accepted) - 1) / served * 60 if served else 0.0
    statuses = [r["status"] for r in outcome.rows]
    figures = {
        "n": len(outcome.rows),
        "limit_rpm": limit_rpm,
        "limit_itpm": limit_itpm,
        "scale": scale,
        "latency_s": latency,
        "concurrency": concurrency,
        "mean_input_tokens": round(mean_tokens, 1),
        "binding_limit_per_min": round(binding, 1),
        "elapsed_s": round(elapsed, 1),
        "cases_per_min": round(per_min, 1),
        "throughput_pct": round(per_min / binding * 100, 1),
        "wall_cases_per_min": round(len(outcome.rows) / elapsed * 60, 1),
        "steady_throughput_pct": (
            round(len(later) / span * 60 / binding * 100, 1) if span > 10 else None
        ),
        "scored_wrong": statuses.count("fail"),
        "errors": statuses.count("error"),
        "refused_429": sum(v.status == 429 for v in log),
        "refused_after_first_minute": sum(v.status == 429 and v.at - t0 >= 60 for v in log),
    }
    return figures, outcome.rows
