"""`converse eval / report / review / export` as a user runs them: exit codes, JSON, JUnit."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app
from evals.runner import RunDir
from tests.evals.test_eval_review import clean

runner = CliRunner()


def run_eval(*args):
    return runner.invoke(app, ["eval", "--no-progress", *args])


@pytest.fixture
def passing_suite(make_suite):
    return make_suite(
        {
            "name": "passing",
            "target": "classify",
            "gate": {"accuracy": 0.9},
            "cases": [
                {"id": "soil", "project": "Garden", "message": "The soil pH should be 6.5",
                 "tags": ["farming"],
                 "expect": {"intent": "add_knowledge", "params": {"knowledge": {"contains": ["6.5"]}}}},
                {"id": "shellfish", "message": "I'm allergic to shellfish",
                 "expect": {"intent": "remember_about_me"}},
            ],
        }
    )  # fmt: skip


def test_json_output_shape_and_exit_zero_when_gates_pass(passing_suite, script_file):
    result = run_eval(
        "--suite",
        str(passing_suite),
        "--provider",
        "scripted",
        "--script",
        str(script_file),
        "--json",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {
        "run_id", "report", "gates_passed", "gate_failures", "results", "calibration",
    }  # fmt: skip
    assert payload["gates_passed"] is True
    # the scripted answers say confidence 1.0 and both are right: calibrated
    (calibrated,) = payload["calibration"]["groups"]
    assert (calibrated["suite"], calibrated["n"], calibrated["ece"]) == ("passing", 2, 0.0)
    assert payload["calibration"]["overall"][0]["suite"] == "(all suites)"
    (entry,) = payload["results"]
    assert {k: entry[k] for k in ("suite", "provider", "model", "prompt", "n", "passed", "errors", "accuracy")} == {
        "suite": "passing", "provider": "scripted", "model": "scripted-fixture", "prompt": {},
        "n": 2, "passed": 2, "errors": 0, "accuracy": 1.0,
    }  # fmt: skip
    assert entry["ci95"] == [pytest.approx(0.3424, abs=1e-4), 1.0]
    assert payload["report"].endswith(f"{payload['run_id']}/report.html")
    assert "passing" in result.stderr  # the table went to stderr


def test_failed_gate_exits_one_and_says_which(classify_suite, script_file, tmp_path):
    junit = tmp_path / "junit.xml"
    result = run_eval("--suite", str(classify_suite), "--provider", "scripted", "--script", str(script_file),
                      "--junit", str(junit), "--no-report")  # fmt: skip
    assert result.exit_code == 1
    assert "gates failed:" in result.stdout
    assert "tiny_classify on scripted: accuracy 0.667 < gate 0.900" in result.stdout
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "2", "1")
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "tiny_classify[scripted]"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["wife-vegetarian"].find("failure") is not None
    assert cases["unscripted"].find("error") is not None
    assert cases["shellfish"].find("failure") is None
    gate = cases["gate"].find("failure")
    assert gate is not None and "accuracy 0.667 < gate 0.900" in gate.get("message", "")


def test_malformed_suite_is_one_error_naming_file_case_and_field(make_suite):
    path = make_suite({"name": "bad", "target": "classify",
                       "cases": [{"id": "c1", "message": "x", "expect": {"intnet": "add_knowledge"}}]})  # fmt: skip
    result = run_eval("--suite", str(path), "--provider", "scripted")
    assert result.exit_code == 2
    assert f"{path}: case 'c1': field expect.intent: Field required" in result.stderr
    assert (
        f"{path}: case 'c1': field expect.intnet: Extra inputs are not permitted" in result.stderr
    )


def test_unknown_provider_and_bad_prompt_option(passing_suite):
    result = run_eval("--suite", str(passing_suite), "--provider", "gpt")
    assert result.exit_code == 2 and "unknown provider 'gpt'" in result.stderr
    result = run_eval(
        "--suite", str(passing_suite), "--provider", "scripted", "--prompt", "classifier"
    )
    assert result.exit_code == 2 and "is not FAMILY=VERSION" in result.stderr
    result = run_eval(
        "--suite", str(passing_suite), "--provider", "scripted", "--prompt", "nosuchfamily=v1"
    )
    assert result.exit_code == 2 and "unknown prompt family 'nosuchfamily'" in result.stderr


def test_resume_of_an_unknown_run_says_what_exists():
    result = run_eval("--resume", "20990101-000000-ffff")
    assert result.exit_code == 2
    assert "no run '20990101-000000-ffff'" in result.stderr


def test_review_verdict_appears_in_the_report_and_release(
    classify_suite, script_file, reports_root
):
    result = run_eval(
        "--suite",
        str(classify_suite),
        "--provider",
        "scripted",
        "--script",
        str(script_file),
        "--json",
    )
    run_id = json.loads(result.stdout)["run_id"]
    reviewed = runner.invoke(
        app,
        [
            "review",
            run_id,
            "wife-vegetarian",
            "--pass",
            "--note",
            "acceptable: about someone else",
            "--reviewer",
            "rita",
        ],
    )
    assert reviewed.exit_code == 0, reviewed.output
    assert "tiny_classify/wife-vegetarian on scripted -> pass by rita" in reviewed.stdout

    missing = runner.invoke(app, ["review", run_id, "nope", "--fail", "--note", "x"])
    assert missing.exit_code == 2 and "has no case 'nope'" in missing.stderr

    clean(run_id)  # the tests run from any working copy
    reported = runner.invoke(
        app, ["report", run_id, "--release", "9.9.9", "--override", "the fixture's gate fails"]
    )
    assert reported.exit_code == 0, reported.output
    markdown = (RunDir.existing(run_id).path / "report.md").read_text()
    assert "pass by rita: acceptable: about someone else" in markdown  # beside the failed case
    assert (
        "| tiny_classify | scripted (fixture answers, not a model) | wife-vegetarian | fail | pass |"
        in markdown
    )
    release = (reports_root / "releases" / "9.9.9.md").read_text()
    assert "# Release 9.9.9 — eval report" in release
    assert (
        "| tiny_classify | scripted (fixture answers, not a model) | - | 3 | 1 | 66.7% | 100.0% |"
        in release
    )
    assert "0 failing case(s) have no reviewer verdict" in release


def test_export_promptfoo_writes_config_and_provider(classify_suite, script_file, tmp_path):
    out = tmp_path / "pf"
    result = runner.invoke(app, ["export", "promptfoo", "--suite", str(classify_suite), "--out", str(out),
                                 "--provider", "scripted", "--script", str(script_file)])  # fmt: skip
    assert result.exit_code == 0, result.output
    config = yaml.safe_load((out / "promptfooconfig.yaml").read_text())
    assert (out / "converse_provider.py").is_file()
    (provider,) = config["providers"]
    assert provider["id"] == "file://converse_provider.py"
    assert (
        provider["config"]["target"] == "classify" and provider["config"]["provider"] == "scripted"
    )
    assert [t["description"] for t in config["tests"]] == [
        "tiny_classify/shellfish", "tiny_classify/refined", "tiny_classify/wife-vegetarian", "tiny_classify/unscripted",
    ]  # fmt: skip
