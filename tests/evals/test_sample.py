"""`converse eval --sample N --seed S`: a tag-stratified, repeatable sample, marked everywhere."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite, load_suites, sample_suite
from evals.dataset.sample import allocate, stratum
from evals.runner import RunDir

runner = CliRunner()


def test_allocation_is_proportional_with_one_per_stratum():
    assert allocate({"a": 30, "b": 10}, 8) == {"a": 6, "b": 2}
    # 7 * 5/12 = 2.92, 7 * 4/12 = 2.33, 7 * 3/12 = 1.75: floors 2, 2, 1, then largest
    # remainders (c 0.75, a 0.92 first) take the two left
    assert allocate({"a": 5, "b": 4, "c": 3}, 7) == {"a": 3, "b": 2, "c": 2}
    # one each when there is room, even for a stratum whose share rounds to nothing
    assert allocate({"big": 100, "tiny": 1}, 4) == {"big": 3, "tiny": 1}
    # fewer cases than strata: the largest remainders win, one each
    assert sum(allocate({"a": 3, "b": 3, "c": 3}, 2).values()) == 2


def test_a_sample_keeps_every_tag_and_is_the_same_for_a_seed():
    (suite,) = load_suites(["intent_boundaries"])
    strata = {stratum(c) for c in suite.cases}
    first = sample_suite(suite, 40, seed=1)
    again = sample_suite(suite, 40, seed=1)
    other = sample_suite(suite, 40, seed=2)
    assert [c.id for c in first.cases] == [c.id for c in again.cases]
    assert [c.id for c in first.cases] != [c.id for c in other.cases]
    assert len(first.cases) == 40 and {stratum(c) for c in first.cases} == strata
    assert first.sample is not None
    assert first.sample.as_json() == {"n": 40, "of": 218, "seed": 1, "strata": len(strata)}
    order = [c.id for c in suite.cases]
    assert [c.id for c in first.cases] == sorted((c.id for c in first.cases), key=order.index)
    assert sample_suite(suite, 500, seed=1) is suite  # not a sample: the whole suite
    with pytest.raises(Exception, match="--sample 0 is too small"):
        sample_suite(suite, 0)


def test_sampled_runs_say_so_in_rows_run_json_results_and_report(classify_suite, script_file):
    args = ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted",
            "--script", str(script_file), "--sample", "2", "--seed", "5", "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), result.output
    payload = json.loads(result.stdout)
    (entry,) = payload["results"]
    assert entry["n"] == 2
    # first tags: personal-fact, continuation, other-person, cooking
    assert entry["sample"] == {"n": 2, "of": 4, "seed": 5, "strata": 4}
    assert "sample 2 of 4" in result.stderr  # the summary table's suite cell
    assert "a sample (seed 5): each suite's cases were drawn stratified by tag" in result.stderr
    run = RunDir.existing(payload["run_id"])
    rows = run.latest_rows()
    assert len(rows) == 2 and all(r["sample"] == entry["sample"] for r in rows)
    meta = run.read_meta()
    assert meta["config"]["sample"] == {"n": 2, "seed": 5}
    assert meta["suite_info"][0]["sample"] == entry["sample"]
    report = (run.path / "report.md").read_text()
    assert "**This run is a sample** (`converse eval --sample N`): tiny_classify (sample 2 of 4, " \
        "seed 5)." in report  # fmt: skip
    assert "| tiny_classify (sample 2 of 4, seed 5) |" in report
    drawn = [c.id for c in sample_suite(load_suite(classify_suite), 2, 5).cases]
    assert sorted(r["case_id"] for r in rows) == sorted(drawn)


def test_junit_marks_a_sample(classify_suite, script_file, tmp_path):
    from xml.etree import ElementTree

    junit = tmp_path / "junit.xml"
    args = ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted",
            "--script", str(script_file), "--sample", "2", "--junit", str(junit), "--no-report"]  # fmt: skip
    runner.invoke(app, args)
    props = {p.get("name"): p.get("value") for p in ElementTree.parse(junit).iter("property")}
    assert props["sample"] == "sample 2 of 4, seed 0"


def test_a_resumed_sample_draws_the_same_cases(classify_suite, script_file):
    from evals.runner.run_meta import config_from_meta

    args = ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted",
            "--script", str(script_file), "--sample", "3", "--json", "--no-report"]  # fmt: skip
    payload = json.loads(runner.invoke(app, args).stdout)
    run = RunDir.existing(payload["run_id"])
    config = config_from_meta(run.read_meta())
    assert config.sample == 3 and config.seed == 0
    (suite,) = config.suites
    assert sorted(c.id for c in suite.cases) == sorted(r["case_id"] for r in run.latest_rows())


def test_seed_without_sample_is_refused(classify_suite):
    result = runner.invoke(app, ["eval", "--suite", str(classify_suite), "--seed", "3"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: --seed chooses which sample --sample draws — pass --sample N with it"
    )
