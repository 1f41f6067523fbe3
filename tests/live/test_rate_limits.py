"""Rate limits never fail a case: the loopback server enforces requests and input tokens a
minute with 429s (retry-after and anthropic-ratelimit-* headers) and overloads with 529s; the
client retries them, lowers its concurrency and raises it again. Synthetic answers only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.loopback import Answer, LoopbackServer, RateLimits
from pipeline.providers.claude.adaptive import AdaptiveLimit

OK = Answer(kind="classify", tool_input={"intent": "general_conversation"})


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_loopback_refuses_past_either_bucket_and_says_when_to_return() -> None:
    clock = FakeClock()
    limits = RateLimits(60, 1000, burst_seconds=2, clock=clock)  # 2 requests, 33 tokens
    assert limits.take(10).status == 200
    assert limits.take(10).status == 200
    refused = limits.take(10)
    assert refused.status == 429 and refused.headers["retry-after"] == "1"
    assert refused.headers["anthropic-ratelimit-requests-limit"] == "60"
    assert refused.headers["anthropic-ratelimit-requests-remaining"] == "0"
    clock.now = 1.0  # one request back in the bucket; tokens refill 16.7 a second
    assert limits.take(10).status == 200
    clock.now = 2.0
    too_big = limits.take(40)
    assert too_big.status == 429 and int(too_big.headers["retry-after"]) >= 1
    assert too_big.headers["anthropic-ratelimit-input-tokens-limit"] == "1000"
    assert [v.status for v in limits.log] == [200, 200, 429, 200, 429]


def _suite(tmp_path: Path, n: int) -> Path:
    cases = "".join(
        f"  - {{id: c{i}, message: 'hello {i}', expect: {{intent: general_conversation}}}}\n"
        for i in range(n)
    )
    path = tmp_path / "many.yaml"
    path.write_text(f"name: many\ntarget: classify\ndescription: x\ncases:\n{cases}", "utf-8")
    return path


def _live_eval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LoopbackServer, n: int
) -> list[dict[str, object]]:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("CONVERSE_CLAUDE_RPM", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "loopback")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    result = CliRunner().invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--no-cache", "--json", "--live",
         "--provider", "claude", "--suite", str(_suite(tmp_path, n)), "-j", "8"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    run = tmp_path / "reports" / "runs" / json.loads(result.stdout)["run_id"]
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def test_429s_are_retried_concurrency_falls_then_rises_and_no_case_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[AdaptiveLimit] = []

    class Kept(AdaptiveLimit):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr("pipeline.providers.claude.client.AdaptiveLimit", Kept)
    # 600 requests a minute (10 a second) with a burst of 3: eight workers at once are refused
    limits = RateLimits(600, 10_000_000, burst_seconds=0.3)
    with LoopbackServer([OK], limits=limits, latency=0.02) as server:
        rows = _live_eval(tmp_path, monkeypatch, server, 40)
    assert len(made) == 1  # the run's eight workers share one limiter
    limiter = made[0]
    assert [r["status"] for r in rows].count("pass") == 40
    refused = [v for v in limits.log if v.status == 429]
    assert refused, "the limit was never reached: the test shows nothing"
    assert limiter.refusals == len(refused)
    levels = [level for _, level in limiter.history]
    low = levels.index(min(levels))
    assert min(levels) < limiter.ceiling and max(levels[low:]) > min(levels)  # fell, then rose


def test_529s_are_retried_and_never_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = RateLimits(6000, 10_000_000, overloaded=range(2, 5))
    with LoopbackServer([OK], limits=limits) as server:
        rows = _live_eval(tmp_path, monkeypatch, server, 6)
    assert [v.status for v in limits.log].count(529) == 3
    assert [str(r["status"]) for r in rows] == ["pass"] * 6


def test_the_pace_follows_the_header_limits_and_the_tokens_used() -> None:
    limiter = AdaptiveLimit(sleep=lambda _s: None)
    headers = {
        "anthropic-ratelimit-requests-limit": "120",
        "anthropic-ratelimit-input-tokens-limit": "200000",
    }
    limiter._tokens_avg = 2500.0  # 80 calls a minute fit the tokens: tokens bind
    limiter._pace(headers, None)
    assert limiter._interval == pytest.approx(60 * 2500 / (200_000 * 0.97))
    limiter._tokens_avg = 1000.0  # 200 a minute would fit the tokens: requests bind
    limiter._pace(headers, None)
    assert limiter._interval == pytest.approx(60 / (120 * 0.97))
