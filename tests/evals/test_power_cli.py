"""`converse power` and the power figures of `converse report --compare --json`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.commands.power import parse_effect
from tests.evals.test_eval_report import run_with, ten_cases  # noqa: F401  (fixture)

BASE, NEW = "20260101-000000-0001", "20260101-000000-0002"


def test_effects_read_as_points_or_shares():
    assert parse_effect("5%") == pytest.approx(0.05)
    assert parse_effect("5pts") == pytest.approx(0.05)
    assert parse_effect("0.05") == pytest.approx(0.05)
    for bad in ("5", "abc", "0", "120%"):
        with pytest.raises(Exception, match="is not a change in accuracy"):
            parse_effect(bad)


def test_power_says_how_many_cases_a_suite_needs(classify_suite):
    result = CliRunner().invoke(app, ["power", "10%", "--suite", str(classify_suite)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "cases needed to detect a change of 10.0 points in accuracy with 80% power at α 0.05 "
        "(Connor (1987) normal approximation for McNemar's test)"
    )
    assert lines[2].split() == ["tiny_classify", "4", "20%", "155", "none", "detectable",
                                "too", "few:", "needs", "155", "(151", "more)"]  # fmt: skip
    assert lines[3] == (
        "discordance: the default 20% (no comparison measured it; --run RUN measures it)"
    )


def test_power_as_json_with_a_given_discordance(classify_suite):
    args = ["power", "0.4", "-s", str(classify_suite), "--discordance", "0.5", "--cases", "30"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["method"] == "Connor (1987) normal approximation for McNemar's test"
    (row,) = payload["suites"]
    # Connor's published example: 23 pairs for p10 = 0.05, p01 = 0.45
    assert row["cases_needed"] == 23 and row["enough"] is True and row["cases"] == 30
    assert row["discordance_source"] == "--discordance"


def test_power_measures_discordance_from_a_compared_run(ten_cases):  # noqa: F811
    run_with(ten_cases, right={0, 1, 2, 3, 4}, run_id=BASE)
    run_with(ten_cases, right={1, 2, 3, 4, 5, 6}, run_id=NEW)  # c0 worse, c5 c6 better
    runner = CliRunner()
    result = runner.invoke(app, ["power", "5%", "-s", str(ten_cases.path), "--run", NEW])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: run {NEW} has no baseline to measure discordance against — pass --baseline "
        f"RUN, or compare it first: converse report {NEW} --compare RUN"
    )
    args = ["power", "5%", "-s", str(ten_cases.path), "--run", NEW, "--baseline", BASE, "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["suites"]
    assert row["discordance"] == pytest.approx(0.3)
    assert row["discordance_source"] == f"run {NEW} against {BASE}: 3 of 10 changed"


def test_report_json_carries_power_verdicts_and_holm_adjusted_tags(ten_cases):  # noqa: F811
    run_with(ten_cases, right={0, 1}, run_id=BASE)
    run_with(ten_cases, right=set(range(1, 10)), run_id=NEW)
    result = CliRunner().invoke(app, ["report", NEW, "--compare", BASE, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    comparison = payload["comparison"]
    assert comparison["multiple_comparisons"] == "Holm–Bonferroni"
    assert comparison["flaky"] == "count"
    (record,) = comparison["comparisons"]
    assert record["verdict"] == "finding: better"
    assert record["mcnemar_exact_p"] == pytest.approx(20 / 512, abs=1e-6)
    assert record["discordance"] == pytest.approx(0.9) and record["discordance_measured"]
    assert record["mde"] == pytest.approx(0.7445, abs=1e-4)
    tags = {t["tag"]: t for t in record["tags"]}
    # even: 1 worse, 4 better (p 0.375); odd: 4 better (p 0.125); Holm over the two tags
    assert tags["odd"]["mcnemar_exact_p"] == pytest.approx(0.125)
    assert tags["odd"]["holm_p"] == pytest.approx(0.25)
    assert tags["even"]["holm_p"] == pytest.approx(0.375)
    assert {t["verdict"] for t in tags.values()} == {"within noise"}
    assert "compared with baseline run" in result.stderr  # the table goes to stderr


def test_flaky_needs_a_comparison(ten_cases):  # noqa: F811
    run_with(ten_cases, right={0, 1}, run_id=BASE)
    result = CliRunner().invoke(app, ["report", BASE, "--flaky", "exclude"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: --flaky applies to a comparison, and run {BASE} has no baseline — pass "
        "--compare BASELINE_RUN with --flaky exclude"
    )
    result = CliRunner().invoke(app, ["report", BASE, "--flaky", "some"])
    assert result.exit_code == 2
    assert "--flaky 'some' is not a mode" in result.stderr
