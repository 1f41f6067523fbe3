"""Live calls honour retry-after and x-should-retry, and keep to a request rate; no real waits:
the sleeps and the clock are injected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.commands.eval import default_concurrency
from evals.loopback import Answer, ErrorAnswer, LoopbackServer
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.claude import claude_providers
from pipeline.providers.claude.retries import RateLimit
from pipeline.providers.registry import Providers

OK = Answer(kind="classify", tool_input={"intent": "general_conversation"})


def rate_limited(retry_after: int, times: int | None = 1) -> Answer:
    return Answer(
        kind="classify",
        message="hello",
        error=ErrorAnswer(
            status=429, type="rate_limit_error", message="Slow down", retry_after=retry_after,
            times=times,
        ),
    )  # fmt: skip


class FakeTime:
    """A clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def providers(server: LoopbackServer, time: FakeTime, **options: object) -> Providers:
    return claude_providers(api_key="loopback", base_url=server.url, sleep=time.sleep, **options)


def test_a_429_is_retried_after_the_wait_retry_after_asks_for() -> None:
    time = FakeTime()
    with LoopbackServer([rate_limited(7), OK]) as server:
        got = providers(server, time).classifier.classify(ClassifyRequest(message="hello"))
        assert len(server.seen) == 2
    assert got.error is None and got.intent == "general_conversation"
    assert time.slept == [7.0]  # at least as long as asked, and no more calls in between


def test_a_wait_longer_than_allowed_is_not_waited_for_and_says_so() -> None:
    time = FakeTime()
    with LoopbackServer([rate_limited(120, times=None), OK]) as server:
        got = providers(server, time).classifier.classify(ClassifyRequest(message="hello"))
        assert len(server.seen) == 1
    assert time.slept == []
    assert got.error == (
        "the Messages API answered HTTP 429 rate_limit_error, not retried (the server asked for "
        "a wait of 120 s, more than the 60 s allowed): Slow down"
    )


def test_retries_run_out_after_the_setting_and_the_error_counts_them() -> None:
    time = FakeTime()
    with LoopbackServer([rate_limited(3, times=None)]) as server:
        got = providers(server, time, max_retries=2, rate_limit_retries=2).classifier.classify(
            ClassifyRequest(message="hello")
        )
        assert len(server.seen) == 3
    assert time.slept == [3.0, 3.0]
    assert got.error == (
        "the Messages API answered HTTP 429 rate_limit_error after 2 retries: Slow down"
    )


def test_should_retry_false_is_never_retried_nor_called_retried() -> None:
    time = FakeTime()
    refused = Answer(
        kind="classify",
        error=ErrorAnswer(status=529, type="overloaded_error", message="Overloaded",
                          retry_after=1, should_retry=False),
    )  # fmt: skip
    with LoopbackServer([refused]) as server:
        got = providers(server, time).classifier.classify(ClassifyRequest(message="hello"))
        assert len(server.seen) == 1
    assert time.slept == []
    assert got.error is not None and "after" not in got.error
    assert "not retried (the server sent x-should-retry: false)" in got.error


def test_the_rate_limit_spaces_calls_and_a_429_holds_every_call() -> None:
    time = FakeTime()
    limit = RateLimit(60, sleep=time.sleep, clock=time.clock)  # one call a second
    with LoopbackServer([OK]) as server:
        classifier = providers(server, time, rate_limit=limit).classifier
        for _ in range(3):
            classifier.classify(ClassifyRequest(message="hi"))
    assert time.slept == [1.0, 1.0]

    time.slept.clear()
    with LoopbackServer([rate_limited(5), OK]) as server:
        classifier = providers(server, time, rate_limit=limit, max_retries=0).classifier
        assert classifier.classify(ClassifyRequest(message="hello")).error is not None
        other = providers(server, time, rate_limit=limit).classifier  # another caller
        assert other.classify(ClassifyRequest(message="hello")).error is None
    assert sum(time.slept) >= 5.0  # nobody called before the server's wait was over


@pytest.mark.parametrize(
    ("rpm", "replay", "expected"),
    [(None, False, 4), ("30", False, 1), ("90", False, 3), ("6000", False, 4), ("30", True, 4)],
)
def test_the_default_concurrency_follows_the_request_rate(
    monkeypatch: pytest.MonkeyPatch, rpm: str | None, replay: bool, expected: int
) -> None:
    monkeypatch.delenv("CONVERSE_CLAUDE_RPM", raising=False)
    if rpm is not None:
        monkeypatch.setenv("CONVERSE_CLAUDE_RPM", rpm)
    assert default_concurrency(["claude"], replay, {}) == expected
    assert default_concurrency(["local"], replay, {}) == 4
    option = {"claude": {"requests_per_minute": "30"}}
    assert default_concurrency(["claude"], False, option) == 1


def test_a_live_eval_under_a_rate_runs_one_case_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "tiny.yaml"
    suite.write_text(
        "name: tiny\ntarget: classify\ndescription: x\ncases:\n"
        "  - {id: a, message: hi, expect: {intent: general_conversation}}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("CONVERSE_CLAUDE_RPM", "6000")  # high enough not to wait here
    with LoopbackServer([OK]) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "loopback")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        result = CliRunner().invoke(
            app,
            ["eval", "--no-progress", "--no-report", "--no-cache", "--json", "--live",
             "--provider", "claude", "--provider-option", "claude.requests_per_minute=20",
             "--suite", str(suite)],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.stdout)["run_id"]
    meta = json.loads((tmp_path / "reports" / "runs" / run_id / "run.json").read_text())
    assert meta["config"]["concurrency"] == 1  # the option's 20 a minute, over the environment
