"""Calibration: expected calibration error and the reliability table from a run's rows, and the
report's Calibration section with its reliability diagrams."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.report.calibration import (
    ALL_SUITES,
    Point,
    bin_of,
    calibrate,
    calibration_json,
    expected_calibration_error,
    reliability,
)
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.providers.scripted import ScriptedProvider
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import stand_in
from tests.evals.test_reading_accuracy import SCRIPT, TEA

SVG = "{http://www.w3.org/2000/svg}"


def points(confidence: float, n: int, right: int) -> list[Point]:
    return [Point(confidence, k < right) for k in range(n)]


def test_a_perfectly_calibrated_set_has_an_ece_of_zero():
    calibrated = points(0.8, 10, 8) + points(0.3, 10, 3) + points(0.95, 20, 19)
    assert expected_calibration_error(calibrated) == pytest.approx(0.0, abs=1e-9)


def test_an_over_confident_set_has_the_ece_computed_by_hand():
    # 4 messages at 0.9, 1 right (gap 0.65); 6 at 0.6, 3 right (gap 0.1):
    # ECE = (0.65 * 4 + 0.1 * 6) / 10 = 0.32
    over = points(0.9, 4, 1) + points(0.6, 6, 3)
    assert expected_calibration_error(over) == pytest.approx(0.32)
    # with one bin both groups pool: mean confidence 0.72, accuracy 0.4
    assert expected_calibration_error(over, bins=1) == pytest.approx(0.32)
    assert expected_calibration_error([]) is None


def test_gaps_of_opposite_sign_in_different_bins_do_not_cancel():
    # over-confident at 0.9 (0.5 right), under-confident at 0.2 (0.6 right): 0.4 each way
    mixed = points(0.9, 10, 5) + points(0.2, 10, 6)
    assert expected_calibration_error(mixed) == pytest.approx(0.4)


def test_bins_with_no_messages_are_skipped():
    table = reliability(points(0.9, 4, 1) + points(0.6, 6, 3) + points(1.0, 2, 2))
    assert [(b.lower, b.upper, b.n, b.correct) for b in table] == [
        (0.6, 0.7, 6, 3),
        (0.9, 1.0, 6, 3),  # 1.0 falls in the last bin
    ]
    assert table[1].confidence == pytest.approx((0.9 * 4 + 2) / 6)
    assert table[0].ci95 == pytest.approx((0.1876, 0.8124), abs=1e-4)  # Wilson, 3 of 6


@pytest.mark.parametrize(
    ("confidence", "index"), [(0.0, 0), (0.0999, 0), (0.1, 1), (0.95, 9), (1.0, 9)]
)
def test_bins_are_equal_width_and_closed_at_one(confidence, index):
    assert bin_of(confidence) == index


def row(suite: str, **fields: Any) -> dict[str, Any]:
    base = {"suite": suite, "target": "classify", "provider": "p", "provider_label": "P",
            "variant": "active", "status": "pass", "checks": [{"name": "intent", "pass": True}]}  # fmt: skip
    return base | fields


def test_rows_without_a_confidence_or_a_verdict_are_counted_as_skipped():
    rows = [
        row("a", confidences=[{"turn": 1, "confidence": 0.9}]),
        row("a", confidences=[{"turn": 1, "confidence": None}]),
        row("a", confidences=[{"turn": 1, "confidence": 1.5}]),
        row("a", confidences=[{"turn": 1, "confidence": "high"}]),
        row("a", confidences=[{"turn": 1, "confidence": 0.7}], checks=[]),  # no intent check
        # a conversation: turn 1 has a gold reading (read wrong), turn 2 none
        row("b", target="conversation", status="fail", checks=[],
            confidences=[{"turn": 1, "confidence": 0.8}, {"turn": 2, "confidence": 0.6}],
            reading_scores=[{"turn": 1, "fields": {"intent": False}}]),
        # left out: an error, a gold replay, a perturbed message
        row("a", status="error", confidences=[{"turn": 1, "confidence": 0.1}]),
        row("a", reading="gold", confidences=[{"turn": 1, "confidence": 1.0}]),
        row("a", perturbation="emoji", confidences=[{"turn": 1, "confidence": 0.2}]),
        row("c"),  # a row that read nothing: no group
    ]  # fmt: skip
    groups = {g.suite: g for g in calibrate(rows)}
    assert set(groups) == {"a", "b", ALL_SUITES}
    assert groups["a"].points == (Point(0.9, True),)
    assert groups["a"].skipped == {"no_confidence": 1, "bad_confidence": 2, "no_verdict": 1}
    assert groups["b"].points == (Point(0.8, False),)
    assert groups["b"].skipped == {"no_verdict": 1}
    overall = groups[ALL_SUITES]
    assert overall.n == 2 and overall.ece == pytest.approx((0.1 + 0.8) / 2)
    assert overall.as_json()["skipped"] == {
        "no_confidence": 1, "bad_confidence": 2, "no_verdict": 2,
    }  # fmt: skip


def test_the_gold_readings_intent_verdict_outranks_the_cases_intent_check():
    # the case's primary intent matched, but the reading had an extra act: not right
    rows = [row("a", confidences=[{"turn": 1, "confidence": 0.9}],
                reading_scores=[{"turn": 1, "fields": {"intent": False, "spans": True}}])]  # fmt: skip
    (group, _) = calibrate(rows)
    assert group.points == (Point(0.9, False),)


def test_providers_and_variants_are_never_pooled():
    rows = [
        row("a", confidences=[{"turn": 1, "confidence": 0.9}]),
        row("a", provider_label="Q", confidences=[{"turn": 1, "confidence": 0.5}]),
        row("a", variant="v2", confidences=[{"turn": 1, "confidence": 0.5}]),
    ]
    found = calibration_json(calibrate(rows))
    assert [(g["provider_label"], g["variant"], g["n"]) for g in found["groups"]] == [
        ("P", "active", 1), ("P", "v2", 1), ("Q", "active", 1),
    ]  # fmt: skip
    assert len(found["overall"]) == 3 and found["bins"] == 10


class Sure:
    """Says add_knowledge with confidence 0.9 to every message; right on the ones it knows."""

    name = "sure"
    model = "sure-fixture"

    def __init__(self, right: set[str]) -> None:
        self.right = right

    def classify(self, request):
        intent = "add_knowledge" if request.message in self.right else "general_conversation"
        return ClassifiedIntent(
            intent=intent, params={}, provider=self.name, model=self.model, confidence=0.9
        )

    def respond(self, request):
        raise NotImplementedError


def test_the_report_shows_the_ece_and_the_reliability_diagram(make_suite):
    suite = make_suite(
        {
            "name": "sure",
            "target": "classify",
            "cases": [{"id": f"c{i}", "message": f"fact {i}", "expect": {"intent": "add_knowledge"}}
                      for i in range(10)],
        }
    )  # fmt: skip
    provider = Sure({f"fact {i}" for i in range(6)})
    config = RunConfig([load_suite(suite)], ["scripted"], use_cache=False)
    out = run_eval(
        EvalOptions(config, progress=False, registry=stand_in(provider, "sure <b>fixture</b>"))
    )
    assert out.rows[0]["confidences"] == [{"turn": 1, "confidence": 0.9}]
    built = build_report(out.run.run_id)
    md = built.markdown.read_text(encoding="utf-8")
    section = md.split("## Calibration")[1].split("\n## ")[0]
    # 10 messages at 0.9, 6 right: ECE |0.6 - 0.9| = 0.300
    row = "| sure | scripted (sure &lt;b>fixture&lt;/b>) | active | 10 | 0.300 | 0.900 | 60.0% | 0 | 0 |"
    assert row in section
    assert "| 0.9–1.0 | 10 | 6 | 0.900 | 60.0% |" in section
    (plot,) = built.markdown.parent.glob("reliability-*.svg")
    assert f"]({plot.name})" in section
    svg = ElementTree.parse(plot).getroot()  # well-formed: the label's "<b>" is escaped
    texts = [t.text or "" for t in svg.iter(f"{SVG}text")]
    assert any("sure — scripted (sure <b>fixture</b>)" in t for t in texts)
    assert any(t.startswith("ECE 0.300 over 10 message(s)") for t in texts)
    assert len(list(svg.iter(f"{SVG}circle"))) == 1  # one non-empty bin, one dot
    html = built.html.read_text(encoding="utf-8")
    assert 'alt="reliability diagram: sure — scripted (sure &lt;b&gt;fixture&lt;/b&gt;)' in html


def test_conversation_turns_carry_the_classifiers_confidence(make_suite):
    data = {"name": "talks", "target": "conversation",
            "cases": [{"id": "t", "turns": [{"message": TEA}, {"message": "what's the time?"}]}]}  # fmt: skip
    config = RunConfig([load_suite(make_suite(data))], ["scripted"], concurrency=1)
    out = run_eval(
        EvalOptions(config, progress=False, registry=stand_in(ScriptedProvider(list(SCRIPT))))
    )
    (found,) = out.rows
    assert [t["confidence"] for t in found["got"]["turns"]] == [1.0, 1.0]
    assert found["confidences"] == [
        {"turn": 1, "confidence": 1.0},
        {"turn": 2, "confidence": 1.0},
    ]
    # no gold reading on either turn: no verdict, so no section in the report
    (group, _) = calibrate(out.rows)
    assert group.n == 0 and group.skipped == {"no_verdict": 2}
    assert "## Calibration" not in build_report(out.run.run_id).markdown.read_text()
