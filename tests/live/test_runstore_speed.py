"""The run store's cost to a run: a run whose every row went through the recorder is levelled
without reading its rows back; anything else is compared row by row; a store already at the
newest migration opens without loading Alembic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from evals.dataset.load import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.results import RunDir
from evals.runstore import RunRecorder, RunStore
from evals.runstore.store import MIGRATIONS, VERSION_TABLE, head_revision


def _files(tmp_path: Path, n: int = 30) -> RunConfig:
    script = {"turns": [{"message": f"m {i}", "intent": "general_conversation"} for i in range(n)]}
    cases = [
        {"id": f"c{i}", "message": f"m {i}", "expect": {"intent": "general_conversation"}}
        for i in range(n)
    ]
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(script), "utf-8")
    suite = {"name": "quick", "target": "classify", "description": "x", "cases": cases}
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite), "utf-8")
    return RunConfig(
        [load_suite(tmp_path / "suite.yaml")],
        ["scripted"],
        use_cache=False,
        script=tmp_path / "script.yaml",
    )


def test_a_run_whose_rows_all_came_through_is_levelled_from_its_tally(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_comparison(*_args: object) -> int:
        raise AssertionError("the folder's rows were read back and compared")

    monkeypatch.setattr(RunStore, "sync", no_comparison)
    recorder = RunRecorder(RunStore(db_url), tmp_path)
    out = run_eval(
        EvalOptions(_files(tmp_path), root=tmp_path, progress=False, on_row=recorder.on_row)
    )
    recorder.finish(out.run.run_id)
    assert recorder.failed is None
    store = RunStore(db_url)
    try:
        run = store.get_run(out.run.run_id)
        assert store.count_rows(out.run.run_id) == 30
    finally:
        store.close()
    assert run is not None
    assert (run["rows"], run["providers"], run["models"]) == (
        30,
        ["scripted"],
        ["scripted-fixture"],
    )
    assert run["unpriced_rows"] == 30 and run["cost_usd"] is None
    assert run["finished_at"] is not None and run["gates_passed"] is not None


def test_rows_from_another_process_are_compared_and_added_once(db_url: str, tmp_path: Path) -> None:
    out = run_eval(EvalOptions(_files(tmp_path), root=tmp_path, progress=False))  # recorded nowhere
    rows = RunDir(out.run.run_id, tmp_path).latest_rows()
    recorder = RunRecorder(RunStore(db_url), tmp_path)
    recorder.on_row(rows[0])  # this process saw one row; the folder holds thirty
    recorder.finish(out.run.run_id)
    store = RunStore(db_url)
    try:
        assert store.count_rows(out.run.run_id) == 30  # 29 added by the comparison, none twice
        run = store.get_run(out.run.run_id)
    finally:
        store.close()
    assert run is not None and run["rows"] == 30


def test_a_store_at_the_newest_migration_opens_without_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = (MIGRATIONS / "env.py").read_text(encoding="utf-8")
    assert re.search(rf'VERSION_TABLE = "{VERSION_TABLE}"', env)
    assert head_revision() == "0001_runs_and_rows"
    url = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    RunStore(url).close()  # a new store: migrated

    import alembic.command

    def no_alembic(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("Alembic ran on a store already at head")

    monkeypatch.setattr(alembic.command, "upgrade", no_alembic)
    RunStore(url).close()
