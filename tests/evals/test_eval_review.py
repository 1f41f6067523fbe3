"""`converse review` keeps every verdict; a release report waits until every failure has one."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.runner import RunDir

runner = CliRunner()


@pytest.fixture
def run_id(classify_suite, script_file) -> str:
    result = runner.invoke(app, ["eval", "--no-progress", "--suite", str(classify_suite),
                                 "--provider", "scripted", "--script", str(script_file), "--json"])  # fmt: skip
    return str(json.loads(result.stdout)["run_id"])


def review(run_id: str, *args: str):
    return runner.invoke(app, ["review", run_id, "wife-vegetarian", *args])


def test_a_release_report_is_refused_while_a_failure_has_no_verdict(run_id, reports_root):
    refused = runner.invoke(app, ["report", run_id, "--release", "9.9.9"])
    assert refused.exit_code == 2
    (line,) = refused.stderr.strip().splitlines()
    assert line == (
        f"error: 1 failing case(s) of run {run_id} have no reviewer verdict (first: "
        f"tiny_classify/wife-vegetarian on scripted) — record each with `converse review {run_id} "
        "SUITE/CASE --pass|--fail --note TEXT [--provider P]`, then build the release report again"
    )
    assert not (reports_root / "releases" / "9.9.9.md").exists()

    assert review(run_id, "--fail", "--note", "a real miss", "--reviewer", "rita").exit_code == 0
    released = runner.invoke(app, ["report", run_id, "--release", "9.9.9"])
    assert released.exit_code == 0, released.output
    assert "a real miss" in (reports_root / "releases" / "9.9.9.md").read_text()


def test_every_verdict_is_kept_and_the_newest_counts(run_id):
    assert review(run_id, "--fail", "--note", "first look", "--reviewer", "rita").exit_code == 0
    assert review(run_id, "--pass", "--note", "about the wife", "--reviewer", "sam").exit_code == 0
    lines = (RunDir.existing(run_id).path / "reviews.jsonl").read_text().splitlines()
    assert [json.loads(line)["verdict"] for line in lines] == ["fail", "pass"]
    assert runner.invoke(app, ["report", run_id]).exit_code == 0
    md = (RunDir.existing(run_id).path / "report.md").read_text()
    reviews = md.split("## Reviews", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in reviews.splitlines() if "wife-vegetarian" in line)
    assert "| fail | pass | about the wife | sam |" in row  # automatic fail, newest verdict pass
    assert "fail by rita at " in row and ": first look |" in row  # the earlier one, kept


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pass"], 'error: a review needs a note saying why — pass --note "TEXT"'),
        (["--note", "x"], "error: a review needs a verdict — pass --pass or --fail"),
    ],
)
def test_a_missing_option_is_one_line_and_exit_2(run_id, args, message):
    result = review(run_id, *args)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [message]
