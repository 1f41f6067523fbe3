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


def clean(run_id: str, **git: object) -> None:
    """Record the run as made from a clean tree (the tests run from any working copy)."""
    path = RunDir.existing(run_id).path / "run.json"
    meta = json.loads(path.read_text())
    meta["git"] = {"commit": "0" * 40, "dirty": False, **git}
    path.write_text(json.dumps(meta))


def review(run_id: str, *args: str):
    return runner.invoke(app, ["review", run_id, "wife-vegetarian", *args])


def test_a_release_report_is_refused_while_a_failure_has_no_verdict(run_id, reports_root):
    clean(run_id)
    refused = runner.invoke(app, ["report", run_id, "--release", "9.9.9"])
    assert refused.exit_code == 2
    (line,) = refused.stderr.strip().splitlines()
    assert line == (
        f"error: the release of run {run_id} is blocked: 1 failing case(s) have no reviewer "
        "verdict (first: tiny_classify/wife-vegetarian on scripted); gate failed: tiny_classify "
        "on scripted: accuracy 0.667 < gate 0.900; gate failed: tiny_classify on scripted: 1 "
        "errors > bound 0 — record each verdict with "
        f"`converse review {run_id} SUITE/CASE --pass|--fail --note TEXT [--provider P]`, fix the "
        'rest and build it again, or pass --override "REASON" to write it anyway (the reason '
        "heads the release report)"
    )
    assert not (reports_root / "releases" / "9.9.9.md").exists()

    assert review(run_id, "--fail", "--note", "a real miss", "--reviewer", "rita").exit_code == 0
    still = runner.invoke(app, ["report", run_id, "--release", "9.9.9"])  # the gate failed
    assert still.exit_code == 2 and "no reviewer verdict" not in still.stderr
    assert "gate failed: tiny_classify on scripted: accuracy 0.667 < gate 0.900" in still.stderr
    args = ["report", run_id, "--release", "9.9.9", "--override", "the fixture's gate fails"]
    released = runner.invoke(app, args)
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


def test_a_dirty_tree_or_an_untracked_prompt_blocks_until_overridden(run_id, reports_root):
    assert review(run_id, "--fail", "--note", "a real miss", "--reviewer", "rita").exit_code == 0
    clean(run_id, dirty=True, untracked_prompts=["prompts/classifier/v9.j2"])
    refused = runner.invoke(app, ["report", run_id, "--release", "9.9.9"])
    assert refused.exit_code == 2
    assert "uncommitted changes (dirty); untracked prompt file(s): prompts/classifier/v9.j2" in (
        refused.stderr
    )
    assert not (reports_root / "releases" / "9.9.9.md").exists()
    empty = runner.invoke(app, ["report", run_id, "--release", "9.9.9", "--override", "  "])
    assert empty.exit_code == 2 and "--override needs a reason" in empty.stderr
    alone = runner.invoke(app, ["report", run_id, "--override", "why"])
    assert alone.exit_code == 2 and "--override applies to a release" in alone.stderr
    reason = "hotfix <b>v9</b> measured by hand"
    written = runner.invoke(app, ["report", run_id, "--release", "9.9.9", "--override", reason])
    assert written.exit_code == 0, written.output
    text = (reports_root / "releases" / "9.9.9.md").read_text()
    top = text.split("\n## ")[1]  # the first section, before Provenance
    assert top.startswith("Released over blockers")
    assert "hotfix &lt;b&gt;v9&lt;/b&gt; measured by hand" in top and "<b>" not in text
    assert "- untracked prompt file(s): prompts/classifier/v9.j2" in top
