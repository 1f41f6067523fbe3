"""No record keeps a credential: an eval given a server URL with a password (one holding an
unescaped `@`) and an API key writes neither into any file of its run folder (rows, run.json,
reports, chart names), the console, or any row of the run store; the store's own error line
hides such a password whole; a cassette hides a URL's password."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from sqlalchemy import create_engine, select
from typer.testing import CliRunner

from evals.cassettes.serializer import _request_out
from evals.cli import app
from evals.loopback.openai_server import OpenAILoopback, error, intent
from evals.runner.results import RunDir
from evals.runner.run_meta import config_from_meta
from evals.runstore.tables import rows_table, runs
from pipeline.providers.openai_compat.settings import set_command_options
from pipeline.redact import redact, redact_argv, redact_data

# Each must appear nowhere; the password holds an unescaped "@" and its tail is distinctive.
PASSWORD = "PW-HEAD@PW-TAIL"
KEY = "sk-KEYSECRET0123"
SECRETS = ("PW-HEAD", "PW-TAIL", "KEYSECRET")


@pytest.fixture(autouse=True)
def no_command_options() -> Iterator[None]:
    set_command_options()
    yield
    set_command_options()


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    cases = [
        {"id": "a", "message": "I'm allergic to shellfish",
         "expect": {"intent": "remember_about_me"}},
        {"id": "b", "message": "hello there", "expect": {"intent": "general_conversation"}},
    ]  # fmt: skip
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump({"name": "tiny", "target": "classify",
                                    "description": "x", "cases": cases}), "utf-8")  # fmt: skip
    return path


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s.lower() in text.lower()]


def test_an_eval_with_a_password_and_a_key_records_neither(
    db_url: str, suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reports = tmp_path / "reports"
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(reports))
    monkeypatch.setenv("CONVERSE_RUNS_URL", db_url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    answers = [intent("remember_about_me", personal_fact="x") for _ in range(8)]
    with OpenAILoopback(answers, lifetime=60.0) as server:
        url = server.url.replace("http://", f"http://user:{PASSWORD}@")
        result = CliRunner().invoke(
            app,
            ["--openai-base-url", url, "--openai-model", "m", "eval",
             "--provider", "openai-compatible", "--suite", str(suite), "--no-progress",
             "--provider-option", f"openai-compatible.api_key={KEY}"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        run_id = next(p.name for p in (reports / "runs").iterdir())
        pushed = CliRunner().invoke(app, ["runs", "push", run_id])
    assert pushed.exit_code == 0, pushed.output
    assert server.requests, "the run reached the server"
    sent = base64.b64decode(server.headers[0]["authorization"].removeprefix("Basic "))
    assert sent.decode() == f"user:{PASSWORD}"  # used, just never recorded
    assert "http://user:***@127.0.0.1" in result.output
    assert _leaks(result.output + pushed.output) == []
    files = [p for p in reports.rglob("*") if p.is_file() and p.suffix != ".sqlite"]
    assert {p.suffix for p in files} >= {".jsonl", ".json", ".md", ".html", ".svg"}
    for path in files:
        assert _leaks(path.name) == [], path.name
        assert _leaks(path.read_bytes().decode("utf-8", "replace")) == [], path
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            stored = [*conn.execute(select(runs)), *conn.execute(select(rows_table))]
    finally:
        engine.dispose()
    assert len(stored) == 3  # the run and its two rows
    for row in stored:
        assert _leaks(repr(tuple(row))) == [], row


def test_a_folder_written_before_redaction_is_pushed_without_its_secrets(
    db_url: str, suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`runs push` of a run folder an older version wrote, secrets and all."""
    reports = tmp_path / "reports"
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(reports))
    monkeypatch.setenv("CONVERSE_RUNS_URL", db_url)
    run_id = "20261128-000000-0001"
    folder = reports / "runs" / run_id
    folder.mkdir(parents=True)
    url = f"http://user:{PASSWORD}@127.0.0.1:9/v1"
    meta = {"run_id": run_id, "created_at": "2026-11-28T00:00:00+00:00",
            "argv": ["--openai-base-url", url, "--provider-option",
                     f"openai-compatible.api_key={KEY}"],
            "config": {"suites": [str(suite)], "providers": ["openai-compatible"],
                       "variants": [{}], "epochs": 1, "concurrency": 1, "use_cache": False,
                       "provider_options": {"openai-compatible": {"api_key": KEY}}}}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(meta))
    row = {"run_id": run_id, "suite": "tiny", "target": "classify", "case_id": "a",
           "provider": "openai-compatible", "provider_label": f"openai-compatible (m at {url})",
           "variant": "active", "epoch": 0, "status": "error", "error": f"cannot reach {url}",
           "finished_at": "2026-11-28T00:00:01+00:00"}  # fmt: skip
    (folder / "results.jsonl").write_text(json.dumps(row) + "\n")
    pushed = CliRunner().invoke(app, ["runs", "push", run_id])
    assert pushed.exit_code == 0, pushed.output
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            stored = [*conn.execute(select(runs)), *conn.execute(select(rows_table))]
    finally:
        engine.dispose()
    assert len(stored) == 2
    for found in stored:
        assert _leaks(repr(tuple(found))) == [], found
    assert "http://user:***@127.0.0.1:9/v1" in repr(tuple(stored[1]))


def test_a_resumed_run_takes_a_hidden_key_from_the_environment(tmp_path: Path) -> None:
    meta = {"config": {"suites": [], "providers": ["openai-compatible"], "variants": [{}],
                       "epochs": 1, "concurrency": 1, "use_cache": False,
                       "provider_options": {"openai-compatible": {"api_key": KEY, "model": "m"}}}}  # fmt: skip
    run = RunDir("20261128-000000-abcd", tmp_path)
    run.write_meta(meta)
    stored = run.read_meta()
    assert stored["config"]["provider_options"] == {
        "openai-compatible": {"api_key": "***", "model": "m"}
    }
    assert config_from_meta(stored).provider_options == {"openai-compatible": {"model": "m"}}


def test_a_resumed_run_is_given_its_hidden_key_again(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("CONVERSE_RUNS_URL", "none")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fails = [error(500)] * 3  # the SDK's two retries, then an error row
    answers = [
        intent("remember_about_me", personal_fact="x"),
        *fails,
        intent("general_conversation"),
    ]
    key = ["--provider-option", f"openai-compatible.api_key={KEY}"]
    with OpenAILoopback(answers, lifetime=60.0) as server:
        common = ["--openai-base-url", server.url, "--openai-model", "m", "eval"]
        first = CliRunner().invoke(
            app,
            [*common, "--provider", "openai-compatible", "--suite", str(suite), "--no-progress",
             "--no-report", "--concurrency", "1", *key],
        )  # fmt: skip
        assert first.exit_code == 1, first.output  # case b errored: the gate fails
        run_id = next(p.name for p in (tmp_path / "reports" / "runs").iterdir())
        again = CliRunner().invoke(
            app, [*common, "--retry-errors", run_id, "--no-progress", "--no-report", *key]
        )
    assert again.exit_code == 0, again.output
    assert [h["authorization"] for h in server.headers] == [f"Bearer {KEY}"] * 5
    meta = json.loads((tmp_path / "reports" / "runs" / run_id / "run.json").read_text())
    assert meta["config"]["provider_options"] == {"openai-compatible": {"api_key": "***"}}


def test_a_run_store_error_hides_a_password_holding_an_at_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CONVERSE_RUNS_URL", f"postgresql+psycopg://ana:{PASSWORD}@127.0.0.1:1/x")
    result = CliRunner().invoke(app, ["runs", "list"])
    assert result.exit_code != 0
    assert "cannot open the run store postgresql+psycopg://ana:***@127.0.0.1:1/x" in result.output
    assert _leaks(result.output) == [] and "Traceback" not in result.output


def test_a_cassette_keeps_a_url_without_its_password() -> None:
    out = _request_out({"method": "POST", "uri": f"http://u:{PASSWORD}@h/v1/messages"})
    assert out["uri"] == "http://u:***@h/v1/messages"


@pytest.mark.parametrize(
    ("given", "recorded"),
    [
        (f"http://u:{PASSWORD}@h:8/v1", "http://u:***@h:8/v1"),
        ("http://h:8080/a@b", "http://h:8080/a@b"),  # a port, no user: nothing to hide
        ("http://u:pa/ss#w@h/v1", "http://u:***@h/v1"),  # "/" and "#" in a password
        ("http://u:p@ss@a/v1 http://b/@x", "http://u:***@a/v1 http://b/@x"),
        ("http://u:p@a/v1,http://u:q@b/v1", "http://u:***@a/v1,http://u:***@b/v1"),
        ("http://h/v1?api_key=zz&model=m", "http://h/v1?api_key=***&model=m"),
        ("--provider-option=claude.api_key=abcdefg x", "--provider-option=claude.api_key=*** x"),
        ("classifier_max_tokens=512", "classifier_max_tokens=512"),  # a count, not a token
        ("failed: Bearer abcdefghijkl", "failed: Bearer ***"),
        (f"key {KEY} leaked", "key *** leaked"),
    ],
)
def test_one_rule_hides_passwords_keys_and_tokens(given: str, recorded: str) -> None:
    assert redact(given) == recorded


def test_options_are_judged_by_name() -> None:
    options = {"x": {"api_key": "k", "access_token": "t", "client_secret": "s",
                     "db_password": "p", "max_tokens": "5", "model": "m"}}  # fmt: skip
    assert redact_data(options) == {"x": {"api_key": "***", "access_token": "***",
                                          "client_secret": "***", "db_password": "***",
                                          "max_tokens": "5", "model": "m"}}  # fmt: skip
    assert redact_argv(["--api-key", "k", "--model", "m"]) == ["--api-key", "***", "--model", "m"]


def test_redaction_is_linear_in_hostile_text() -> None:
    started = time.perf_counter()
    hidden = redact("http://u:" + "a@" * 100_000 + " and " + "http://u:p@h " * 20_000)
    assert time.perf_counter() - started < 2.0  # a backtracking "last @" took minutes
    assert hidden.startswith("http://u:***@ and http://u:***@h ")
