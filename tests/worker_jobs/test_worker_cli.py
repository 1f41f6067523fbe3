"""`converse worker run-once` runs the memory jobs after the sweep and says what each did."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.store import open_store
from tests.worker_jobs.helpers import facts, live

runner = CliRunner()


def test_run_once_prints_each_job_and_runs_each_once_a_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("CONVERSE_PROVIDER", "local")
    assert runner.invoke(app, ["person", "add", "ana"]).exit_code == 0
    store = open_store(url)
    try:
        facts(store, "ana", "You're allergic to shellfish", "You are allergic to shellfish")
    finally:
        store.dispose()
    first = runner.invoke(app, ["worker", "run-once"])
    assert first.exit_code == 0, first.output
    assert (
        "Consolidation (ana): 1 candidate pair(s), 0 skipped (compared in the last 14 days), "
        "1 checked, 1 merged; decided by: deterministic (no model)." in first.output
    )
    assert (
        "Insights (ana): skipped: no model (the provider has no structured generation)."
        in first.output
    )
    again = runner.invoke(app, ["worker", "run-once"])
    assert "Consolidation (ana): already run today" in again.output
    store = open_store(url)
    try:
        assert live(store, "ana") == ["You are allergic to shellfish"]
    finally:
        store.dispose()


def test_a_bad_pairs_setting_is_one_line_and_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("CONVERSE_CONSOLIDATION_PAIRS_PER_DAY", "0")
    done = runner.invoke(app, ["worker", "run-once"])
    assert done.exit_code != 0
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and "CONVERSE_CONSOLIDATION_PAIRS_PER_DAY" in lines[0]
    assert "Lifecycle sweep" not in done.output
