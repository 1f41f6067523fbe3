"""Perturbed runs: per-perturbation rows, resume, invariance, the gate, the JSON, the report and
the CLI's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import SuiteError, load_suite
from evals.perturb import parse_perturbations, perturb_case, perturbation_figures
from evals.perturb.styles import OPENING_PAUSES
from evals.runner import EvalOptions, RunConfig, plan, run_eval
from pipeline.providers.base import ClassifyRequest
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import scripted, stand_in, write_yaml

runner = CliRunner()
SUITE = {
    "name": "robust",
    "target": "classify",
    "gate": {"accuracy": 0.5, "invariance": 0.9},
    "cases": [
        {"id": "shellfish", "message": "I'm allergic to shellfish.",
         "expect": {"intent": "remember_about_me",
                    "params": {"personal_fact": {"contains": ["shellfish"]}}}},
        {"id": "soil", "project": "Garden", "message": "The soil pH should be 6.5",
         "expect": {"intent": "add_knowledge"}},
        {"id": "hello", "message": "hello", "expect": {"intent": "general_conversation"}},
    ],
}  # fmt: skip


class Reader:
    """Reads by keyword, as a model might; an opening "uhm" or "uhh" throws it off (so the
    voice transcript changes verdicts), and it is case-sensitive about "The soil"."""

    name = "reader"
    model = "reader-fixture"

    def __init__(self) -> None:
        self.inner = scripted()
        self.seen: list[str] = []

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        text = request.message
        self.seen.append(text)
        if text.split()[0] in OPENING_PAUSES:
            return ClassifiedIntent(intent="general_conversation")
        if "shellfish" in text.lower():
            return ClassifiedIntent(intent="remember_about_me", params={"personal_fact": text})
        if "The soil" in text:
            return ClassifiedIntent(intent="add_knowledge", params={"knowledge": text})
        return ClassifiedIntent(intent="general_conversation")

    def respond(self, request):
        return self.inner.respond(request)


def config(path, perturb=("lower", "emoticons"), **extra):
    return RunConfig([load_suite(path)], ["scripted"], concurrency=2, perturb=perturb, **extra)


def test_plan_adds_a_copy_per_perturbation_that_changes_a_case(make_suite):
    path = make_suite(SUITE)
    items = plan(config(path, perturb=("lower", "no_final_punct")))
    keys = [i.key for i in items]
    assert len(keys) == len(set(keys))
    perturbed = {(i.case.id, i.perturbation): i.case.message for i in items if i.perturbation}
    assert perturbed == {
        ("shellfish", "lower"): "i'm allergic to shellfish.",
        ("soil", "lower"): "the soil ph should be 6.5",
        ("shellfish", "no_final_punct"): "I'm allergic to shellfish",
    }  # "hello" is lower already and has no final punctuation: its verdict stands
    assert len(items) == 3 + 3


def test_a_provider_replaying_cassettes_is_not_perturbed(make_suite):
    suite = load_suite(make_suite(SUITE))
    live = RunConfig([suite], ["claude", "scripted"], perturb=("lower",))
    replayed = RunConfig([suite], ["claude", "scripted"], perturb=("lower",), replay=True)
    assert {i.provider for i in plan(live) if i.perturbation} == {"claude", "scripted"}
    assert {i.provider for i in plan(replayed) if i.perturbation} == {"scripted"}


def test_rows_name_their_perturbation_and_invariance_counts_changed_verdicts(make_suite):
    path = make_suite(SUITE)
    provider = Reader()
    out = run_eval(EvalOptions(config(path), progress=False, registry=stand_in(provider)))
    rows = out.run.rows()
    assert sorted((r["case_id"], r.get("perturbation", "")) for r in rows) == [
        ("hello", ""), ("hello", "emoticons"),
        ("shellfish", ""), ("shellfish", "emoticons"), ("shellfish", "lower"),
        ("soil", ""), ("soil", "emoticons"), ("soil", "lower"),
    ]  # fmt: skip
    lowered = next(r for r in rows if r.get("perturbation") == "lower" and r["case_id"] == "soil")
    assert lowered["input"]["message"] == "the soil ph should be 6.5"
    assert lowered["status"] == "fail"
    assert lowered["expected"] == {"intent": "add_knowledge"}
    (group,) = out.groups
    assert (group.n, group.passed) == (3, 3)  # the figures of the suite as written
    lower, emoticons = group.robustness or []
    assert lower["name"] == "lower"
    assert {k: lower[k] for k in ("n", "changed", "passed", "paired", "invariant", "broke")} == {
        "n": 3, "changed": 2, "passed": 2, "paired": 2, "invariant": 1, "broke": 1,
    }  # fmt: skip
    assert lower["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert lower["accuracy_change"] == pytest.approx(-1 / 3, abs=1e-4)
    assert lower["invariance"] == 0.5
    assert emoticons["invariance"] == 1.0 and emoticons["changed"] == 3
    assert group.gate_failures == ("robust on scripted [lower]: invariance 0.500 < gate 0.900",)
    payload = group.as_json()
    assert payload["robustness"][0]["invariance_ci95"] == [
        pytest.approx(0.0945, abs=1e-4),
        pytest.approx(0.9055, abs=1e-4),
    ]
    assert payload["gate"]["invariance"] == 0.9


def test_a_resumed_run_keeps_perturbed_rows_apart(make_suite):
    path = make_suite(SUITE)
    first = Reader()
    out = run_eval(EvalOptions(config(path), progress=False, registry=stand_in(first)))
    again = Reader()
    resumed = run_eval(EvalOptions(resume=out.run.run_id, progress=False, registry=stand_in(again)))
    assert again.seen == [] and resumed.skipped == 8


def test_a_suites_own_perturb_key_runs_without_the_option(make_suite):
    path = make_suite({**SUITE, "perturb": ["voice_transcript"]})
    provider = Reader()
    out = run_eval(
        EvalOptions(config(path, perturb=None), progress=False, registry=stand_in(provider))
    )
    (group,) = out.groups
    assert [f["name"] for f in group.robustness or []] == ["voice_transcript"]
    none = run_eval(
        EvalOptions(config(path, perturb=("none",)), progress=False, registry=stand_in(Reader()))
    )
    assert none.groups[0].robustness is None


def test_a_suite_perturb_key_is_checked_when_the_file_is_read(make_suite):
    with pytest.raises(SuiteError, match=r"field perturb: unknown perturbation 'tpyos'; valid"):
        load_suite(make_suite({**SUITE, "perturb": ["tpyos"]}))
    block = {"name": "blk", "target": "memory_block", "perturb": ["lower"],
             "cases": [{"id": "b", "memories": [], "expect": {"empty": True}}]}  # fmt: skip
    with pytest.raises(SuiteError, match="memory_block suites have no messages to perturb"):
        load_suite(make_suite(block))


def test_figures_count_unchanged_cases_with_their_verdict_and_errors_apart():
    base = [
        {"case_id": c, "epoch": 0, "status": s}
        for c, s in [("a", "pass"), ("b", "pass"), ("c", "fail"), ("d", "error"), ("e", "pass")]
    ]
    rows = [
        {"case_id": c, "epoch": 0, "status": s}
        for c, s in [("a", "fail"), ("b", "error"), ("c", "pass"), ("d", "pass")]
    ]
    f = perturbation_figures("typos", base, rows)
    # verdicts under typos: a fail, b error, c pass, d pass, e pass (unchanged)
    assert (f["n"], f["changed"], f["passed"], f["errors"]) == (5, 4, 3, 1)
    assert f["accuracy"] == 0.75 and f["accuracy_change"] == 0.0  # as written: 3 of 4 scored
    # paired: a (pass -> fail), c (fail -> pass); b and d have an error on one side
    assert (f["paired"], f["invariant"], f["broke"], f["fixed"]) == (2, 0, 1, 1)
    assert f["invariance"] == 0.0


def test_cli_unknown_perturbation_is_one_line_before_anything_runs(make_suite, reports_root):
    path = make_suite(SUITE)
    result = runner.invoke(app, ["eval", "--no-progress", "--suite", str(path), "--perturb",
                                 "casual,tpyos", "--provider", "scripted"])  # fmt: skip
    assert result.exit_code == 2
    (line,) = [x for x in result.stderr.splitlines() if x.strip()]
    assert "unknown perturbation 'tpyos'; valid: lower, no_articles, no_final_punct, " in line
    assert "all, none" in line
    assert not (reports_root / "runs").exists()


def test_cli_json_and_report_show_robustness(make_suite, tmp_path):
    path = make_suite(SUITE)
    suite = load_suite(path)
    voice = parse_perturbations(["voice_transcript"])[0]
    said = {c.id: perturb_case(c, voice, 0) for c in suite.cases}
    script = {"turns": [
        {"message": "I'm allergic to shellfish.", "intent": "remember_about_me",
         "params": {"personal_fact": "You're allergic to shellfish"}},
        {"message": "The soil pH should be 6.5", "intent": "add_knowledge",
         "params": {"knowledge": "The soil pH should be 6.5"}},
        {"message": "hello", "intent": "general_conversation"},
        # under the voice transcript the shellfish message is misread; the others are not
        {"message": said["shellfish"].message, "intent": "general_conversation"},
        {"message": said["soil"].message, "intent": "add_knowledge",
         "params": {"knowledge": "The soil pH should be 6.5"}},
        {"message": said["hello"].message, "intent": "general_conversation"},
    ]}  # fmt: skip
    script_file = write_yaml(tmp_path / "script.yaml", script)
    result = runner.invoke(app, ["eval", "--no-progress", "--suite", str(path), "--provider",
                                 "scripted", "--script", str(script_file), "--perturb", "voice_transcript",
                                 "--json"])  # fmt: skip
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    (entry,) = payload["results"]
    assert entry["n"] == 3 and entry["passed"] == 3
    (figures,) = entry["robustness"]
    assert (figures["name"], figures["invariant"], figures["paired"]) == ("voice_transcript", 2, 3)
    assert payload["gate_failures"] == [
        "robust on scripted [voice_transcript]: invariance 0.667 < gate 0.900"
    ]
    assert "robustness: each perturbation" in result.stderr
    report = Path(payload["report"]).with_suffix(".md").read_text(encoding="utf-8")
    assert "## Robustness" in report and "| voice_transcript | 3 of 3 | 66.7% |" in report
    assert "1 verdict(s) changed by a perturbation" in report
    assert "**robustness**: FAIL" in report
