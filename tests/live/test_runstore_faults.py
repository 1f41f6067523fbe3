"""The run store fails in one line, and never by waiting forever or by guessing: a server that
accepts and never answers is given up on within the memory database's bound; a mistyped SQLite
path grows no folders and no empty store."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evals.cli import app

# Far past the 1 s bound the test sets, far short of "hangs".
GIVE_UP_S = 30.0


def test_a_store_that_never_answers_is_one_line_within_the_bound(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # the kernel accepts; nobody ever says a word
    port = listener.getsockname()[1]
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("CONVERSE_RUNS_URL", f"postgresql+psycopg://ana:pw@127.0.0.1:{port}/runs")
    monkeypatch.setenv("CONVERSE_DB_CONNECT_TIMEOUT_S", "1")
    result: list[Any] = []
    worker = threading.Thread(
        target=lambda: result.append(CliRunner().invoke(app, ["runs", "list"])), daemon=True
    )
    started = time.monotonic()
    worker.start()
    try:
        worker.join(GIVE_UP_S)
    finally:
        listener.close()  # resets the waiting connection: the test ends either way
    elapsed = time.monotonic() - started
    worker.join(10)
    assert elapsed < GIVE_UP_S, "runs list waited on a silent server past the bound"
    assert result and result[0].exit_code == 2, result
    lines = result[0].output.strip().splitlines()
    assert len(lines) == 1, result[0].output
    assert lines[0].startswith(
        f"error: cannot open the run store postgresql+psycopg://ana:***@127.0.0.1:{port}/runs: "
    )
    assert "gave up after 1 s, CONVERSE_DB_CONNECT_TIMEOUT_S" in lines[0]


def test_a_mistyped_sqlite_path_creates_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    typo = tmp_path / "reprots" / "team" / "runs.sqlite"
    monkeypatch.setenv("CONVERSE_RUNS_URL", f"sqlite:///{typo}")
    for command in (["runs", "list"], ["runs", "trend"]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"error: the folder of the run store '{typo}' does not exist — create it first, "
            "or set CONVERSE_RUNS_URL to a file in an existing folder\n"
        )
    assert not (tmp_path / "reprots").exists()


def test_the_default_store_folder_is_still_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("CONVERSE_RUNS_URL", raising=False)
    result = CliRunner().invoke(app, ["runs", "list"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reports" / "runs.sqlite").is_file()


@pytest.fixture
def a_stored_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    import yaml

    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("CONVERSE_RUNS_URL", raising=False)
    suite = {"name": "s", "target": "classify", "description": "x",
             "cases": [{"id": "c", "message": "m", "expect": {"intent": "general_conversation"}}]}  # fmt: skip
    script = {"turns": [{"message": "m", "intent": "general_conversation"}]}
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite), "utf-8")
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(script), "utf-8")
    result = CliRunner().invoke(
        app,
        ["eval", "--provider", "scripted", "--script", str(tmp_path / "script.yaml"),
         "--suite", str(tmp_path / "suite.yaml"), "--no-report", "--no-progress"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["runs", "list", "--limit", str(10**20)],
         "error: --limit is 100,000,000,000,000,000,000; it must be 1 to 1,000,000"),
        (["runs", "trend", "--limit", str(10**20)],
         "error: --limit is 100,000,000,000,000,000,000; it must be 1 to 1,000,000"),
        (["runs", "list", "--suite", "\udcff\udcfe"],
         "error: --suite is not valid UTF-8 — name a suite as `converse runs list` shows it"),
        (["runs", "trend", "--suite", "\udcff"],
         "error: --suite is not valid UTF-8 — name a suite as `converse runs list` shows it"),
        (["runs", "trend", "--out", "/dev/full"],
         "error: /dev/full is not a regular file (a device, pipe or socket); nothing was "
         "written — name a file on disk for the trend page"),
    ],
)  # fmt: skip
def test_what_used_to_be_a_traceback_is_one_line(
    a_stored_run: Path, argv: list[str], said: str
) -> None:
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 2, result.output
    assert result.output == said + "\n"
