"""Why cases moved between two runs: the reading changed, or the decision did."""

from __future__ import annotations

from evals.report import build_report
from evals.report.attribution import attribute_moves
from evals.report.compare import compare
from evals.report.frame import frame
from pipeline.providers.scripted import ScriptEntry
from tests.evals.test_reading_accuracy import SCRIPT, provider_run


def test_a_comparison_says_whether_the_reading_or_the_decision_moved_each_case(make_suite):
    before = provider_run(make_suite)
    fixed = [ScriptEntry("yes", "remember_about_me", {}, after="remember_about_me",
                         reading={"relation": "confirm"}), *SCRIPT]  # fmt: skip
    after = provider_run(make_suite, fixed)
    current = frame(after.rows)
    baseline = frame(before.rows)
    comparison = compare(current, baseline, before.run.run_id)
    moved = comparison.attribution
    assert moved[["Case", "Moved", "Cause"]].to_dict("records") == [
        {"Case": "misread", "Moved": "fix", "Cause": "reading changed"}
    ]
    assert comparison.as_json()["attribution"]["reading_changed"] == 1
    # the same reading verdicts and another outcome: the decision moved
    flipped = baseline.copy()
    flipped.loc[flipped["case_id"] == "decided", ["status", "passed"]] = ("pass", True)
    decided = attribute_moves(
        current, flipped, [{"Suite": "talks", "Provider": current["provider_label"][0],
                            "Case": "decided"}], []
    )  # fmt: skip
    assert decided["Cause"].tolist() == ["decision changed"]
    built = build_report(after.run.run_id, compare=before.run.run_id)
    text = built.markdown.read_text(encoding="utf-8")
    assert "Why cases moved" in text and "1 because the reading changed" in text
