"""Epoch reducers: how a case's epochs reduce to one score (mean, majority, pass@k, all-k),
chosen per suite or on the command line, shown in the summary and gated on."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.reducers import reduced
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import stand_in


class FirstTimeOnly:
    """Right on a message's first ask, wrong after (so epochs disagree on every case)."""

    name = "first"
    model = "first-fixture"

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()

    def classify(self, request):
        self.asked[request.message] += 1
        right = self.asked[request.message] == 1 or request.message == "fact 0"
        intent = "add_knowledge" if right else "general_conversation"
        params = {"knowledge": request.message} if right else {}
        return ClassifiedIntent(intent=intent, params=params, provider=self.name, model=self.model)

    def respond(self, request):
        raise NotImplementedError


def _rows(verdicts: dict[str, list[str]]):
    return [{"case_id": c, "status": s} for c, statuses in verdicts.items() for s in statuses]


def test_each_reducer_by_hand():
    rows = _rows({"a": ["pass", "fail", "fail"], "b": ["pass", "pass", "fail"],
                  "c": ["pass", "pass", "pass"], "d": ["fail", "error", "fail"]})  # fmt: skip
    assert reduced(rows, "mean") == (pytest.approx(6 / 11), 4)  # pooled: 6 passes of 11 scored
    assert reduced(rows, "majority") == (pytest.approx(2 / 4), 4)  # b, c
    assert reduced(rows, "pass@k") == (pytest.approx(3 / 4), 4)  # a, b, c
    assert reduced(rows, "all-k") == (pytest.approx(1 / 4), 4)  # c
    assert reduced(_rows({"e": ["error"]}), "pass@k") is None


@pytest.fixture
def four_cases(make_suite):
    def make(reducer=None):
        data = {"name": "four", "target": "classify", "gate": {"accuracy": 0.9},
                "cases": [{"id": f"c{i}", "project": "Garden", "message": f"fact {i}",
                           "expect": {"intent": "add_knowledge"}} for i in range(4)]}  # fmt: skip
        if reducer:
            data["epochs_reducer"] = reducer
        return make_suite(data)

    return make


def test_a_suite_reducer_sets_the_gate_and_the_summary(four_cases):
    suite = load_suite(four_cases("pass@k"))
    assert suite.reducer == "pass@k"
    cfg = RunConfig([suite], ["scripted"], epochs=3, use_cache=False)
    outcome = run_eval(
        EvalOptions(cfg, run_id="r1", progress=False, registry=stand_in(FirstTimeOnly()))
    )
    (group,) = outcome.groups
    assert group.accuracy == pytest.approx(6 / 12)  # c0 passes 3 times, the rest once
    assert group.reduced == 1.0 and group.gate_passed  # pass@3: every case passed once
    md = build_report("r1").markdown.read_text()
    assert "| Epochs reduced |" in md and "| pass@3: 100.0% |" in md
    strict = RunConfig([load_suite(four_cases("all-k"))], ["scripted"], epochs=3, use_cache=False)
    outcome = run_eval(
        EvalOptions(strict, run_id="r2", progress=False, registry=stand_in(FirstTimeOnly()))
    )
    (group,) = outcome.groups
    assert group.reduced == pytest.approx(1 / 4)
    assert group.gate_failures == ("four on scripted: accuracy (all-3) 0.250 < gate 0.900",)


def test_the_command_line_reducer_replaces_the_suites(four_cases, script_file):
    path = four_cases("pass@k")
    args = ["eval", "--no-progress", "--suite", str(path), "--provider", "scripted",
            "--script", str(script_file), "--epochs", "2", "--json"]  # fmt: skip
    result = CliRunner().invoke(app, [*args, "--reducer", "majority"])
    payload = json.loads(result.stdout)
    (entry,) = payload["results"]
    assert entry["reducer"] == "majority" and entry["epochs"] == 2
    assert "reduced_accuracy" in entry
    assert "reduced" in result.stderr and "majority" in result.stderr  # the summary's column
    bad = CliRunner().invoke(app, [*args, "--reducer", "best"])
    assert bad.exit_code == 2 and "'best' is not an epoch reducer; valid: mean, majority" in (
        bad.stderr
    )
