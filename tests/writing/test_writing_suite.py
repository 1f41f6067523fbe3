"""The writing_constraints suite: its cases load, its scorer checks each item, and its figure
is the share of new items passing on the first pass, gated and listed with its failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.dataset.load import SuiteError, load_suite, load_suites
from evals.dataset.models import Gate
from evals.dataset.writing import WritingExpect
from evals.runner.writing_metrics import writing_gate_failures, writing_metrics
from evals.scorers.writing import score_writing


def test_the_suite_covers_every_write_path() -> None:
    (suite,) = load_suites(["writing_constraints"])
    assert suite.target == "writing"
    assert {c.path for c in suite.cases} == {"extraction", "compaction", "closure"}  # type: ignore[union-attr]
    assert suite.gate is not None and suite.gate.first_pass_rate is not None


def test_a_case_needs_the_input_its_path_reads(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: w\ntarget: writing\ncases:\n  - {id: a, path: closure, message: hi}\n",
        encoding="utf-8",
    )
    with pytest.raises(SuiteError, match="at least two `turns`"):
        load_suite(path)


def test_each_item_is_a_check_and_a_failing_one_names_its_rules() -> None:
    got = {
        "path": "extraction",
        "items": [
            {"text": "You bake", "problems": [], "stored": "You bake"},
            {"text": "I bake", "problems": ["not addressed"], "stored": None},
        ],
    }
    score = score_writing(WritingExpect(), got)
    assert not score.passed
    assert "item 2 'I bake': not addressed" in score.why


def test_too_few_items_fails_the_case() -> None:
    score = score_writing(WritingExpect(min_items=2), {"path": "extraction", "items": []})
    assert not score.passed and "only 0 items" in score.why


def _row(case: str, path: str, *problems: list[str], status: str = "pass") -> dict:
    items = [{"text": f"t{i}", "problems": p, "stored": None} for i, p in enumerate(problems)]
    return {"case_id": case, "status": status, "got": {"path": path, "items": items}}


def test_the_rate_is_pooled_over_items_not_cases() -> None:
    rows = [
        _row("a", "extraction", [], [], []),
        _row("b", "closure", ["not in the third person"]),
        _row("c", "extraction", [], status="error"),  # errored rows are left out
    ]
    m = writing_metrics(rows)
    assert (m["items"], m["first_pass"], m["first_pass_rate"]) == (4, 3, 0.75)
    assert m["by_path"]["closure"] == {"items": 1, "first_pass": 0, "rate": 0.0}
    assert m["failing"] == [
        {
            "case": "b",
            "path": "closure",
            "text": "t0",
            "problems": ["not in the third person"],
            "stored": None,
        }
    ]
    assert writing_gate_failures("w", m, Gate(first_pass_rate=0.95)) == [
        "w: first-pass rate 0.750 < gate 0.950"
    ]
    assert writing_gate_failures("w", m, Gate(first_pass_rate=0.7)) == []


def test_the_summary_names_the_first_pass_gate_of_a_writing_suite() -> None:
    from evals.report.tables import summary
    from evals.runner.summary import GroupResult

    group = GroupResult(
        suite="writing_constraints",
        target="writing",
        provider="local",
        label="local",
        model="m",
        variant="",
        prompt={},
        n=4,
        passed=4,
        errors=0,
        gate=Gate(first_pass_rate=0.95),
    )
    assert summary([group]).loc[0, "Gate"] == "pass (first pass ≥ 95%)"
