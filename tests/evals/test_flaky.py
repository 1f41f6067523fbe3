"""Flaky cases: epochs that disagree are listed, and a comparison counts or excludes them."""

from __future__ import annotations

import json
import threading
from collections import Counter

from typer.testing import CliRunner

from evals.cli import app
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import stand_in
from tests.evals.test_eval_report import ten_cases  # noqa: F401  (fixture)

BASE, NEW = "20260101-000000-0001", "20260101-000000-0002"


class Flipping:
    """Right on the messages in `right`; on those in `flip`, right on every other call."""

    name = "flipping"
    model = "flipping-fixture"

    def __init__(self, right: set[str], flip: set[str]) -> None:
        self.right, self.flip = right, flip
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()

    def classify(self, request):
        with self.lock:
            self.calls[request.message] += 1
            call = self.calls[request.message]
        good = request.message in self.right or (request.message in self.flip and call % 2 == 1)
        intent = "add_knowledge" if good else "general_conversation"
        params = {"knowledge": request.message} if good else {}
        return ClassifiedIntent(intent=intent, params=params, provider=self.name, model=self.model)

    def respond(self, request):
        raise NotImplementedError


def run(suite, right, flip, run_id, epochs=3):
    provider = Flipping({f"fact {i}" for i in right}, {f"fact {i}" for i in flip})
    cfg = RunConfig([suite], ["scripted"], epochs=epochs, use_cache=False)
    label = "scripted (fixture answers, not a model)"
    return run_eval(
        EvalOptions(cfg, run_id=run_id, progress=False, registry=stand_in(provider, label))
    )


def test_the_report_lists_flaky_cases_with_their_verdicts_by_epoch(ten_cases):  # noqa: F811
    outcome = run(ten_cases, right={0, 1}, flip={2, 3}, run_id=NEW)
    (group,) = outcome.groups
    assert group.flaky == ("c2", "c3")
    assert group.as_json()["flaky_cases"] == ["c2", "c3"]
    md = build_report(NEW).markdown.read_text()
    section = md.split("## Agreement across epochs")[1].split("\n## ")[0]
    assert "| Flaky cases |" in section and "| 3 | 80.0% | 20.0% | 40.0% | 2 |" in section
    assert "2 flaky case(s) of 10 run in more than one epoch" in section
    # pass, fail, pass: two of three epochs agree
    assert (
        "| ten | scripted (fixture answers, not a model) | - | c2 | 3 | 2 | ✓✗✓ | 2 | 66.7% |"
        in section
    )
    assert "| c0 | 3 | 3 | ✓✓✓ | 1 | 100.0% |" in section  # every case, folded


def test_single_epoch_runs_have_no_flaky_list(ten_cases):  # noqa: F811
    outcome = run(ten_cases, right={0}, flip={2}, run_id=NEW, epochs=1)
    assert outcome.groups[0].flaky is None
    assert "flaky_cases" not in outcome.groups[0].as_json()
    assert "Agreement across epochs" not in build_report(NEW).markdown.read_text()


def test_a_comparison_counts_or_excludes_flaky_cases_and_says_which(ten_cases):  # noqa: F811
    run(ten_cases, right={0, 1}, flip=set(), run_id=BASE)
    # c2, c3 flip (majority pass: fixes if counted); c4 is a steady fix
    run(ten_cases, right={0, 1, 4}, flip={2, 3}, run_id=NEW)
    counted = build_report(NEW, compare=BASE).comparison
    assert counted is not None and counted.flaky == "count"
    (record,) = counted.records
    assert (record["n"], record["fixes"], record["flaky"]) == (10, 3, {"mode": "count", "cases": 2})
    md = build_report(NEW).markdown.read_text()  # remembered with the baseline
    assert "flaky cases (epochs that disagree) count at their majority verdict" in md
    excluded = build_report(NEW, flaky="exclude").comparison  # the remembered baseline
    assert excluded is not None and excluded.flaky == "exclude"
    (record,) = excluded.records
    assert (record["n"], record["fixes"], record["flaky"]) == (
        8,
        1,
        {"mode": "exclude", "cases": 2},
    )
    md = build_report(NEW).markdown.read_text()
    assert "flaky cases (epochs that disagree, in either run) are left out" in md
    assert "| 8 | 25.0% | 37.5% | +12.5% | 0 | 1 | 1.0000 |" in md
    assert "| 2 left out | 0 / 0 | within noise |" in md
    result = CliRunner().invoke(app, ["report", NEW, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["comparison"]["flaky"] == "exclude"
    assert "flaky cases (--flaky exclude): 2 left out" in result.stderr
