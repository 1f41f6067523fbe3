"""The run store: every run's metadata and rows in SQLite or PostgreSQL, written as the run goes;
list, show, trend; a report compared between runs that are only in the store; two shards
writing to one store at once lose nothing."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset.load import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.results import RunDir, row_key
from evals.runner.shards import Shard
from evals.runstore import RunRecorder, RunStore

RUN_ID = "20261126-130000-beef"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    script = {
        "turns": [
            {"message": f"message {i}", "intent": "general_conversation"} for i in range(0, 40, 3)
        ]
    }
    cases = [
        {"id": f"c{i}", "message": f"message {i}", "expect": {"intent": "general_conversation"}}
        for i in range(40)
    ]
    suite = {"name": "stored", "target": "classify", "description": "x", "cases": cases}
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(script), "utf-8")
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite), "utf-8")
    return tmp_path / "suite.yaml", tmp_path / "script.yaml"


def _eval(files: tuple[Path, Path], *extra: str) -> str:
    suite, script = files
    result = CliRunner().invoke(
        app,
        ["eval", "--provider", "scripted", "--script", str(script), "--suite", str(suite),
         "--no-cache", "--no-report", "--no-progress", "--json", *extra],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    return str(json.loads(result.stdout)["run_id"])


@pytest.fixture
def stored(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("CONVERSE_RUNS_URL", db_url)
    return db_url


def test_a_run_is_stored_with_its_metadata_and_every_row(
    stored: str, files: tuple[Path, Path], tmp_path: Path
) -> None:
    run_id = _eval(files)
    folder = RunDir(run_id)
    store = RunStore(stored)
    try:
        run = store.get_run(run_id)
        rows = store.rows_of([run_id])[run_id]
        stored_rows = store.count_rows(run_id)
    finally:
        store.close()
    assert stored_rows == 40  # written as the run went; the final sync added none twice
    pushed = CliRunner().invoke(app, ["runs", "push", run_id])
    assert pushed.exit_code == 0 and f"run {run_id}: 0 rows added" in pushed.output
    assert run is not None
    assert run["rows"] == 40 and run["providers"] == ["scripted"]
    assert run["models"] == ["scripted-fixture"]
    assert run["git_commit"] == folder.read_meta()["git"]["commit"]
    assert isinstance(run["git_dirty"], bool)
    assert run["cost_usd"] is None and run["unpriced_rows"] == 40  # scripted: no price, not 0
    by_key = {row_key(r): r for r in rows}
    assert by_key == {row_key(r): r for r in folder.latest_rows()} and len(rows) == 40


def test_list_show_and_trend_read_the_store(
    stored: str, files: tuple[Path, Path], tmp_path: Path
) -> None:
    # created in the same second: the run id (its time first) orders them
    first = _eval(files, "--run-id", "20261126-130001-0000")
    second = _eval(files, "--run-id", "20261126-130002-0000")
    listed = CliRunner().invoke(app, ["runs", "list"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.index(second) < listed.output.index(first)  # newest first
    shown = CliRunner().invoke(app, ["runs", "show", first])
    assert shown.exit_code == 0 and "scripted (fixture answers, not a model)" in shown.output
    out = tmp_path / "trend.html"
    trend = CliRunner().invoke(app, ["runs", "trend", "--suite", "stored", "--out", str(out)])
    assert trend.exit_code == 0, trend.output
    page = out.read_text()
    # one plot (the legend's line-and-marker icons are small SVGs of their own)
    assert page.count('role="img"') == 1 and "<polyline" in page
    assert first in page and second in page
    assert "stored · scripted · " in page  # suite · provider · model · prompt versions
    missing = CliRunner().invoke(app, ["runs", "show", "20200101-000000-0000"])
    assert (
        missing.exit_code != 0
        and "the run store holds no run 20200101-000000-0000" in missing.output
    )


def test_report_compares_two_runs_held_only_in_the_store(
    stored: str, files: tuple[Path, Path], tmp_path: Path
) -> None:
    base = _eval(files)
    head = _eval(files)
    shutil.rmtree(tmp_path / "reports" / "runs")  # another machine: only the store has them
    result = CliRunner().invoke(app, ["report", head, "--compare", base])
    assert result.exit_code == 0, result.output
    assert f"compared with baseline run {base}" in result.output
    assert (tmp_path / "reports" / "runs" / head / "report.html").is_file()


def test_two_shards_writing_to_one_store_at_once_lose_nothing(
    db_url: str, files: tuple[Path, Path], tmp_path: Path
) -> None:
    suite, script = files
    config = RunConfig([load_suite(suite)], ["scripted"], epochs=3, use_cache=False, script=script)
    errors: list[BaseException] = []

    def shard(k: int) -> None:
        recorder = RunRecorder(RunStore(db_url), tmp_path / f"s{k}")
        try:
            run_eval(
                EvalOptions(
                    config,
                    run_id=RUN_ID,
                    root=tmp_path / f"s{k}",
                    progress=False,
                    shard=Shard(k, 2),
                    on_row=recorder.on_row,
                )
            )
        except BaseException as exc:
            errors.append(exc)
        finally:
            recorder.finish(RUN_ID)

    threads = [threading.Thread(target=shard, args=(k,)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    local = [r for k in (1, 2) for r in RunDir(RUN_ID, tmp_path / f"s{k}").latest_rows()]
    store = RunStore(db_url)
    try:
        rows = store.rows_of([RUN_ID])[RUN_ID]
        run = store.get_run(RUN_ID)
    finally:
        store.close()
    key = lambda r: (r["case_id"], r["epoch"])  # noqa: E731
    assert sorted(map(key, rows)) == sorted(map(key, local)) and len(rows) == 120
    assert run is not None and run["rows"] == 120
    assert run["meta"]["shards"] == [{"k": 1, "n": 2}, {"k": 2, "n": 2}]


class Broken:
    def record_run(self, *args: object) -> None:
        raise RuntimeError("database went away")

    def add_row(self, row: object) -> None:
        raise AssertionError("not reached")

    error = None

    def close(self) -> None:
        pass


def test_a_store_that_fails_never_stops_the_run(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite, script = files
    config = RunConfig([load_suite(suite)], ["scripted"], use_cache=False, script=script)
    recorder = RunRecorder(Broken(), tmp_path)  # type: ignore[arg-type]
    outcome = run_eval(EvalOptions(config, root=tmp_path, progress=False, on_row=recorder.on_row))
    recorder.finish(outcome.run.run_id)
    assert len(outcome.rows) == 40
    assert "the run store stopped receiving this run (RuntimeError: database went away)" in (
        capsys.readouterr().err
    )


def test_an_unreachable_store_is_one_line_before_anything_runs(
    files: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("CONVERSE_RUNS_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    suite, script = files
    result = CliRunner().invoke(
        app, ["eval", "--provider", "scripted", "--script", str(script), "--suite", str(suite)]
    )
    assert result.exit_code == 2, result.output
    assert "cannot open the run store postgresql+psycopg://nobody@127.0.0.1:1/none" in result.output
    assert not (tmp_path / "reports" / "runs").exists()


def test_a_row_is_stored_as_the_folder_wrote_it_and_nan_still_goes_in(
    db_url: str, tmp_path: Path
) -> None:
    """The store keeps the folder's JSON text; Python's NaN, which PostgreSQL's JSON refuses,
    is written as null instead of failing the batch."""
    out = run_eval(
        EvalOptions(
            RunConfig(
                [load_suite(_files_suite(tmp_path))],
                ["scripted"],
                use_cache=False,
                script=tmp_path / "script.yaml",
            ),
            root=tmp_path,
            progress=False,
        )
    )
    first, second = RunDir(out.run.run_id, tmp_path).latest_rows()[:2]
    odd = dict(second, case_id="nan-case", similarity=float("nan"))
    store = RunStore(db_url)
    recorder = RunRecorder(store, tmp_path)
    recorder.on_row(first, json.dumps(first, ensure_ascii=False, separators=(",", ":")))
    recorder.on_row(odd, json.dumps(odd))
    store.stop_writer()
    assert store.error is None, store.error
    stored = {r["case_id"]: r for r in store.rows_of([out.run.run_id])[out.run.run_id]}
    store.close()
    assert stored["nan-case"]["similarity"] is None
    assert stored[first["case_id"]] == first


def _files_suite(tmp_path: Path) -> Path:
    script = {"turns": [{"message": "m", "intent": "general_conversation"}]}
    case = {"id": "c0", "message": "m", "expect": {"intent": "general_conversation"}}
    suite = {"name": "odd", "target": "classify", "description": "x",
             "cases": [case, dict(case, id="c1")]}  # fmt: skip
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(script), "utf-8")
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite), "utf-8")
    return tmp_path / "suite.yaml"


@pytest.mark.parametrize("url", ["not a url", "postgresql+nodriver://u:s3cret@h/db"])
def test_a_run_store_url_that_cannot_open_is_one_line_without_its_password(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_RUNS_URL", url)
    result = CliRunner().invoke(app, ["runs", "list"])
    assert result.exit_code != 0
    assert "cannot open the run store" in result.output and "Traceback" not in result.output
    assert "s3cret" not in result.output
