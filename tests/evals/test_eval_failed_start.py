"""A `converse eval` that cannot start leaves no run folder behind for `converse report` or
`--resume` to offer; a run that started keeps its folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.results import RUN_META

runner = CliRunner()
EVAL = ["eval", "--no-progress", "--no-report"]


def run_folders(reports_root: Path) -> list[str]:
    runs = reports_root / "runs"
    return sorted(p.name for p in runs.iterdir()) if runs.is_dir() else []


def started_id(stderr: str) -> str | None:
    found = re.search(r"^run (\S+)$", stderr, re.MULTILINE)
    return found.group(1) if found else None


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            ["--provider", "claude"],
            "error: no recorded cassette for suite tiny_classify, so Claude cannot",
        ),
        (  # a script that exists but fails when the provider is built, after the run id
            ["--provider", "scripted", "--script", "BAD_SCRIPT"],
            "error: script BAD_SCRIPT, entry 1: needs `message` and `intent` (or `acts`) — fix the entry",
        ),
    ],
)
def test_a_run_that_cannot_start_leaves_no_folder(
    reports_root, classify_suite, script_file, tmp_path, monkeypatch, extra, expected
):
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(tmp_path / "no-fixtures"))  # no cassettes
    bad = tmp_path / "bad-script.yaml"
    bad.write_text("turns: [1]\n", encoding="utf-8")
    extra = [str(bad) if e == "BAD_SCRIPT" else e for e in extra]
    expected = expected.replace("BAD_SCRIPT", str(bad))
    script = [] if "--script" in extra else ["--script", str(script_file)]
    args = [*EVAL, "--suite", str(classify_suite), *script, *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].startswith(expected), result.stderr
    assert run_folders(reports_root) == []

    run_id = started_id(result.stderr)
    if "claude" in extra:  # refused before a run id is given out: nothing to report or resume
        assert run_id is None and result.stderr.count("\n") == 1
        return
    assert run_id is not None
    report = runner.invoke(app, ["report", run_id])
    assert report.exit_code == 2
    assert "--resume" not in report.stderr
    assert report.stderr.startswith(f"error: no run {run_id!r}")
    resumed = runner.invoke(app, [*EVAL, "--resume", run_id])
    assert resumed.exit_code == 2
    assert f"error: no run {run_id!r}" in resumed.stderr


@pytest.mark.parametrize(
    "extra",
    [
        ["--suite", "no_such_suite"],
        ["--provider", "gpt"],
        ["--prompt", "classifier"],
        ["--provider-option", "nonsense"],
        ["--epochs", "2", "--cassette", "x.yaml"],
    ],
)
def test_a_bad_option_leaves_no_folder(reports_root, classify_suite, extra):
    args = [*EVAL, *(["--suite", str(classify_suite)] if "--suite" not in extra else []), *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")
    assert run_folders(reports_root) == []


def test_a_started_run_keeps_its_folder(reports_root, classify_suite, script_file):
    result = runner.invoke(
        app,
        [*EVAL, "--suite", str(classify_suite), "--provider", "scripted", "--script",
         str(script_file)],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    (run_id,) = run_folders(reports_root)
    assert (reports_root / "runs" / run_id / RUN_META).is_file()
    assert (reports_root / "runs" / run_id / "results.jsonl").is_file()


class LaterFailure(RuntimeError):
    pass


def test_a_failure_before_any_row_removes_the_new_folder(
    reports_root, classify_suite, script_file, monkeypatch
):
    config = RunConfig(
        suites=[load_suite(classify_suite)], providers=["scripted"], variants=[{}], epochs=1,
        concurrency=1, use_cache=False, script=script_file,
    )  # fmt: skip

    def boom(*args, **kwargs):
        assert run_folders(reports_root) == ["r1"]  # the run could start: its folder exists
        raise LaterFailure("the first case could not run")

    monkeypatch.setattr("evals.runner.run.execute", boom)
    with pytest.raises(LaterFailure):
        run_eval(EvalOptions(config, run_id="r1", progress=False))
    assert run_folders(reports_root) == []


def test_ctrl_c_before_the_run_started_offers_no_resume(
    reports_root, classify_suite, script_file, monkeypatch
):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("evals.runner.run.run_eval", interrupted)
    result = runner.invoke(
        app,
        [*EVAL, "--suite", str(classify_suite), "--provider", "scripted", "--script",
         str(script_file)],
    )  # fmt: skip
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "interrupted before the run started; nothing was saved"
    assert run_folders(reports_root) == []
