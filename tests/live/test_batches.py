"""`converse eval --batch`: live Claude calls through Message Batches, against the loopback
server's batch endpoints (scripted answers, labelled synthetic-fixture). A classify suite is one
batch; a conversation suite is one batch per step; a run killed mid-poll resumes from another
process and collects once; rows equal those of the same run without batches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anthropic
import pytest
from rich.console import Console
from typer.testing import CliRunner

from evals.batch import BatchFolder, BatchGuard, BatchOptions, custom_id, run_batch_eval
from evals.cassettes import synthetic_answers
from evals.cli import app
from evals.dataset.load import load_suite
from evals.loopback import Answer, LoopbackServer, load_answers
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.config import PROJECT_ROOT
from pipeline.providers.claude.batches import BatchClient, BatchResult

OK = Answer(kind="classify", tool_input={"intent": "general_conversation"})
REPLY = Answer(kind="respond", text="Something with lemons.")
# What differs between two runs of the same cases by design: ids, times, the commit state, and
# how the row was priced and answered.
VARYING = {"run_id", "latency_ms", "finished_at", "git", "cost_usd", "batch"}

TALK = """name: batch_talk
target: conversation
description: two short conversations
cases:
  - id: shellfish
    turns:
      - message: "I'm allergic to shellfish"
        expect: {intent: remember_about_me, memory: [{state: held, text: {contains: [shellfish]}}]}
      - message: "yes"
        expect: {memory: [{state: committed, text: {contains: [shellfish]}}]}
  - id: mornings
    turns:
      - message: "What should I cook tonight?"
        expect: {intent: general_conversation}
      - message: "I prefer working in the mornings"
        expect: {intent: remember_about_me}
"""


def _classify_suite(folder: Path, n: int) -> Path:
    cases = "".join(
        f"  - {{id: c{i}, message: 'hello {i}', expect: {{intent: general_conversation}}}}\n"
        for i in range(n)
    )
    path = folder / "batched.yaml"
    path.write_text(f"name: batched\ntarget: classify\ndescription: x\ncases:\n{cases}", "utf-8")
    return path


def _rows(run: Path) -> list[dict[str, Any]]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept = [_without_ids({k: v for k, v in r.items() if k not in VARYING}) for r in rows]
    return sorted(kept, key=lambda r: (r["suite"], r["case_id"]))


def _without_ids(value: Any) -> Any:
    """The row without its turns' database ids: they follow the order conversations ran in."""
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k != "turn_ids"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _config(suite: Path, url: str) -> RunConfig:
    return RunConfig(
        suites=[load_suite(suite)],
        providers=["claude"],
        use_cache=False,
        provider_options={"claude": {"api_key": "loopback", "base_url": url}},
    )


def test_a_classify_suite_is_one_batch_polled_collected_and_equal_to_direct_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    suite = _classify_suite(tmp_path, 6)
    with LoopbackServer([OK], batch_polls=2) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "loopback")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        common = ["eval", "--no-progress", "--no-report", "--no-cache", "--json", "--live",
                  "--provider", "claude", "--suite", str(suite)]  # fmt: skip
        batched = CliRunner().invoke(app, [*common, "--batch", "--batch-poll", "0"])
        assert batched.exit_code == 0, batched.output
        direct_calls_before = len(server.seen)
        direct = CliRunner().invoke(app, common)
        assert direct.exit_code == 0, direct.output
        log = server.batches.log
    # one submission of six requests, answered as in_progress twice before it ended
    assert [size for _, size in log.created] == [6]
    batch_id = log.created[0][0]
    assert log.results_read == {batch_id: 1}
    assert "in_progress, 0/6 done" in batched.stderr
    assert f"batch {batch_id}: collected 6 result(s) (6 succeeded)" in batched.stderr
    assert direct_calls_before == 6  # the batch's requests, answered once each
    runs = tmp_path / "reports" / "runs"
    batch_run = runs / json.loads(batched.stdout)["run_id"]
    direct_run = runs / json.loads(direct.stdout)["run_id"]
    assert json.loads((batch_run / "run.json").read_text())["batch"] == {"poll_seconds": 0.0}
    assert [s["id"] for s in BatchFolder(batch_run).submissions()] == [batch_id]
    batch_rows = _rows(batch_run)
    assert len(batch_rows) == 6 and all(r["batch"] is True for r in batch_rows)
    assert all(r["status"] == "pass" for r in batch_rows)
    assert _comparable(batch_rows) == _comparable(_rows(direct_run))


def test_a_conversation_suite_is_one_batch_per_step_across_its_conversations(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "talk.yaml"
    suite.write_text(TALK, encoding="utf-8")
    with LoopbackServer(load_answers(synthetic_answers()), batch_polls=0) as server:
        direct = run_eval(
            EvalOptions(_config(suite, server.url), root=tmp_path / "direct", progress=False)
        )
        batched = run_batch_eval(
            EvalOptions(
                _config(suite, server.url),
                root=tmp_path / "batched",
                progress=False,
                console=Console(file=open(os.devnull, "w")),  # noqa: SIM115
            ),
            BatchOptions(poll_seconds=0),
        )
        log = server.batches.log
    # two turns, each a reading then a reply: four steps, each one batch of both conversations
    assert [size for _, size in log.created] == [2, 2, 2, 2]
    assert batched.tally.passed == 2
    assert _comparable(batched.rows) == _comparable(direct.rows)


def _converse(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    command = "import sys; from evals.cli import main; sys.argv[0] = 'converse'; main()"
    return subprocess.Popen(
        [sys.executable, "-c", command, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_run_killed_mid_poll_resumes_in_another_process_and_collects_once(
    tmp_path: Path,
) -> None:
    suite = _classify_suite(tmp_path, 4)
    reports = tmp_path / "reports"
    with LoopbackServer([OK], batch_polls=10_000) as server:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")) if p
            ),
            "CONVERSE_REPORTS_DIR": str(reports),
            "CONVERSE_RUNS_URL": "none",
            "ANTHROPIC_API_KEY": "loopback",
            "ANTHROPIC_BASE_URL": server.url,
        }
        first = _converse(
            "eval", "--no-progress", "--no-report", "--no-cache", "--live", "--provider",
            "claude", "--suite", str(suite), "--batch", "--batch-poll", "0.05", env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not any(n >= 3 for n in server.batches.log.polls.values()):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the batch was never polled"
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)  # killed mid-poll: nothing can clean up
        first.wait()
        (run,) = (reports / "runs").iterdir()
        assert not (run / "results.jsonl").is_file() or not _rows(run)
        assert len(BatchFolder(run).outstanding()) == 1
        server.batches.polls = 1  # the batch finishes while nobody watches
        second = _converse("eval", "--no-progress", "--no-report", "--json", "--resume",
                           run.name, env=env)  # fmt: skip
        out, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
        log = server.batches.log
    assert len(log.created) == 1  # never submitted again
    assert list(log.results_read.values()) == [1]  # collected once
    rows = _rows(run)
    assert sorted(r["case_id"] for r in rows) == [f"c{i}" for i in range(4)]  # no duplicates
    assert json.loads(out)["results"][0]["passed"] == 4
    assert BatchFolder(run).outstanding() == []


def test_a_row_answered_from_a_batch_is_priced_at_the_batch_rate_by_hand() -> None:
    message = {
        "model": "claude-haiku-5-5",
        "usage": {"input_tokens": 2000, "output_tokens": 300,
                  "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 500},
    }  # fmt: skip
    key = ("s", "c", "claude", "active", 0, "")
    cid = custom_id(key, 0, {})
    unpriced = BatchGuard({cid: BatchResult(cid, "succeeded", message | {"model": "synthetic"})})
    unpriced.start_item(key)
    unpriced.handle(_request(), _never)
    row: dict[str, Any] = {"cost_usd": 1.0}
    unpriced.finish_row(row)
    assert row["cost_usd"] is None and row["batch"] is True  # an unpriced model: no cost
    guard = BatchGuard({cid: BatchResult(cid, "succeeded", message)})
    guard.start_item(key)
    answer = guard.handle(_request(), _never)
    assert answer.status_code == 200 and answer.json() == message
    guard.finish_row(row)
    # Haiku 5.5: input $0.10, output $0.50, cache reads $0.01 and writes $0.125, all halved
    # (the pricing page: prompt-caching multipliers stack with the batch discount)
    by_hand = (2000 * 0.10 + 300 * 0.50 + 1000 * 0.01 + 500 * 0.125) * 0.5 / 1e6
    assert row["cost_usd"] == pytest.approx(by_hand)


def _never(request: Any) -> Any:
    raise AssertionError("an answered call must not be sent")


def _request() -> Any:
    from anthropic._models import FinalRequestOptions
    from anthropic._request import APIRequest

    options = FinalRequestOptions(method="post", url="/v1/messages", json_data={})
    return APIRequest(options=options, cast_to=object)


def test_batch_is_refused_where_it_cannot_work(tmp_path: Path) -> None:
    suite = str(_classify_suite(tmp_path, 1))
    local = CliRunner().invoke(app, ["eval", "--provider", "local", "--suite", suite, "--batch"])
    assert local.exit_code == 2
    assert "--batch sends live Claude calls through Message Batches, and this run makes none" in (
        local.output
    )
    bounded = CliRunner().invoke(
        app,
        ["eval", "--provider", "claude", "--live", "--suite", suite, "--batch", "--max-cost", "1"],
        env={"ANTHROPIC_API_KEY": "loopback"},
    )
    assert bounded.exit_code == 2
    assert "--max-cost prices each call before it is sent, and a batch sends none" in (
        bounded.output
    )


def test_batch_results_name_each_request_and_its_error() -> None:
    with LoopbackServer([REPLY], batch_polls=2) as server:
        _ask_two(BatchClient.from_options(api_key="loopback", base_url=server.url))


def test_the_loopback_refuses_batches_the_api_refuses() -> None:
    params = {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}
    with LoopbackServer([REPLY], batch_polls=5) as server:
        client = BatchClient.from_options(api_key="loopback", base_url=server.url)
        with pytest.raises(anthropic.BadRequestError, match="must match"):
            client.submit([("not ok!", params)])
        with pytest.raises(anthropic.BadRequestError, match="given twice"):
            client.submit([("a", params), ("a", params)])
        with pytest.raises(anthropic.NotFoundError, match="no batch msgbatch_nothing"):
            client.status("msgbatch_nothing")
        running = client.submit([("a", params)])
        with pytest.raises(anthropic.AnthropicError, match="Has it finished processing"):
            list(client.results(running.id))  # no results_url until it has ended


def _ask_two(client: BatchClient) -> None:
    good = {
        "model": "claude-haiku-5-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "What should I cook tonight?"}],
    }
    bad = {"model": "claude-haiku-5-5", "messages": [{"role": "user", "content": "hi"}]}
    submitted = client.submit([("reply-1", good), ("no-max-tokens", bad)])
    assert submitted.status == "in_progress" and submitted.processing == 2
    polls = [client.status(submitted.id) for _ in range(3)]
    assert [p.status for p in polls] == ["in_progress", "in_progress", "ended"]
    assert (polls[-1].succeeded, polls[-1].errored) == (1, 1)
    results = {r.custom_id: r for r in client.results(submitted.id)}
    assert results["reply-1"].kind == "succeeded"
    assert results["reply-1"].message is not None
    assert results["reply-1"].message["model"] == "synthetic-fixture"
    assert results["no-max-tokens"].kind == "errored"
    assert results["no-max-tokens"].error == {
        "type": "invalid_request_error",
        "message": "max_tokens: field required",
    }


def test_requests_that_did_not_run_are_asked_again_then_stand(tmp_path: Path) -> None:
    from evals.batch.folder import MAX_ATTEMPTS
    from pipeline.providers.claude.batches import BatchStatus

    folder = BatchFolder(tmp_path)
    overloaded = {"type": "overloaded_error", "message": "Overloaded"}
    invalid = {"type": "invalid_request_error", "message": "max_tokens: field required"}
    for attempt in range(MAX_ATTEMPTS):
        batch_id = f"msgbatch_{attempt}"
        folder.record_submission(BatchStatus(batch_id, "in_progress"), "s", attempt + 1,
                                 ["cv_busy", "cv_bad", "cv_late"])  # fmt: skip
        assert [s["id"] for s in folder.outstanding()] == [batch_id]
        folder.save_results(
            batch_id,
            [
                BatchResult("cv_busy", "errored", error=overloaded),
                BatchResult("cv_bad", "errored", error=invalid),
                BatchResult("cv_late", "expired"),
            ],
        )
        answers = folder.answers()
        if attempt < MAX_ATTEMPTS - 1:  # asked again: only the final error stands
            assert set(answers) == {"cv_bad"}
    assert set(folder.answers()) == {"cv_busy", "cv_bad", "cv_late"}  # after the last attempt
    assert folder.outstanding() == [] and folder.steps() == MAX_ATTEMPTS


def test_an_errored_batch_request_is_an_error_row_naming_the_api_message(
    tmp_path: Path,
) -> None:
    suite = _classify_suite(tmp_path, 2)
    bad = Answer(
        kind="classify",
        message="hello 1",
        error={"status": 400, "type": "invalid_request_error", "message": "prompt is too long"},
    )
    with LoopbackServer([OK, bad], batch_polls=0) as server:
        out = run_batch_eval(
            EvalOptions(
                _config(suite, server.url),
                root=tmp_path,
                progress=False,
                console=Console(file=open(os.devnull, "w")),  # noqa: SIM115
            ),
            BatchOptions(poll_seconds=0),
        )
        assert len(server.batches.log.created) == 1  # an invalid request is not asked again
    rows = {r["case_id"]: r for r in out.rows}
    assert rows["c0"]["status"] == "pass"
    assert rows["c1"]["status"] == "error"
    assert "HTTP 400 invalid_request_error" in rows["c1"]["error"]
    assert "prompt is too long" in rows["c1"]["error"]
