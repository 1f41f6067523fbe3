"""Reports: tables per suite x provider x prompt, tags, heatmaps, failures, comparisons."""

from __future__ import annotations

import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import RunConfig, run_eval
from pipeline.domain import ClassifiedIntent
from tests.evals.conftest import factory_for


class Knows:
    """Answers add_knowledge for the messages it knows, general_conversation otherwise."""

    name = "knows"
    model = "knows-fixture"

    def __init__(self, right: set[str]) -> None:
        self.right = right

    def classify(self, request):
        intent = "add_knowledge" if request.message in self.right else "general_conversation"
        params = {"knowledge": request.message} if intent == "add_knowledge" else {}
        return ClassifiedIntent(intent=intent, params=params, provider=self.name, model=self.model)

    def respond(self, request):
        raise NotImplementedError


@pytest.fixture
def ten_cases(make_suite):
    return load_suite(
        make_suite(
            {
                "name": "ten",
                "target": "classify",
                "gate": {"accuracy": 0.5},
                "cases": [
                    {"id": f"c{i}", "tags": ["even" if i % 2 == 0 else "odd"], "project": "Garden",
                     "message": f"fact {i}", "expect": {"intent": "add_knowledge"}}
                    for i in range(10)
                ],
            }
        )
    )  # fmt: skip


def run_with(suite, right, run_id, epochs=1):
    provider = Knows({f"fact {i}" for i in right})
    label = "scripted (fixture answers, not a model)"
    cfg = RunConfig([suite], ["scripted"], epochs=epochs, use_cache=False)
    return run_eval(cfg, run_id=run_id, progress=False, factory=factory_for(provider, label))


def test_report_has_every_table_with_provider_labels(ten_cases):
    run_with(ten_cases, right=range(7), run_id="r1", epochs=2)
    built = build_report("r1")
    md = built.markdown.read_text()
    for heading in ("## Summary", "## Accuracy per tag", "## Confusion matrices", "## Agreement across epochs",
                    "## Latency and tokens", "## Reviews", "## Failed cases", "## Errors"):  # fmt: skip
        assert heading in md
    # 14 of 20 rows pass; Wilson 95% interval of 14/20 is 48.1% – 85.5%
    assert (
        "| ten | scripted (fixture answers, not a model) | knows-fixture | - | 20 | 14 | 6 | 0 | 0 | 70.0% | 48.1% – 85.5% | pass (≥ 50%) |"
        in md
    )
    assert "| ten | scripted (fixture answers, not a model) | - | even | 10 | 8 | 0 | 80.0% |" in md
    assert (
        "| ten | scripted (fixture answers, not a model) | - | 10 | 2 | 100.0% | 70.0% | 70.0% |"
        in md
    )
    assert (
        "| ten | scripted (fixture answers, not a model) | - | c9 | 1 | fact 9 [project: Garden] | add_knowledge | general_conversation | intent general_conversation, expected add_knowledge |  |"
        in md
    )
    heatmaps = list(built.markdown.parent.glob("confusion-*.png"))
    assert len(heatmaps) == 1 and heatmaps[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = built.html.read_text()
    assert html.count("<table>") >= 6 and 'src="data:image/png;base64,' in html
    # the provider label is in every table that has rows
    for block in md.split("\n\n"):
        if block.startswith("| Suite |") and "\n|---" in block and block.count("\n") >= 2:
            assert "not a model" in block, block


def test_compare_lists_regressions_and_fixes_with_mcnemar(ten_cases):
    run_with(ten_cases, right={0, 1}, run_id="base")
    run_with(ten_cases, right=set(range(1, 10)), run_id="new")
    md = build_report("new", compare="base").markdown.read_text()
    # c0 regressed, c2..c9 fixed: exact McNemar p = 2 * P(X <= 1), X ~ Bin(9, 0.5) = 20/512
    assert (
        "| ten | scripted (fixture answers, not a model) | - → - | 10 | 20.0% | 90.0% | +70.0% | 1 | 8 | 0.0391 | better, more than noise |"
        in md
    )
    regressions = md.split("### Regressions")[1].split("###")[0]
    assert (
        "| ten | scripted (fixture answers, not a model) | c0 | add_knowledge | add_knowledge (knowledge='fact 0') | general_conversation |"
        in regressions
    )
    fixes = md.split("### Fixes")[1].split("##")[0]
    assert fixes.count("| ten |") == 8


def test_compare_within_noise(ten_cases):
    run_with(ten_cases, right={0, 1, 2, 3, 4}, run_id="a")
    run_with(ten_cases, right={1, 2, 3, 4, 5}, run_id="b")
    md = build_report("b", compare="a").markdown.read_text()
    assert "| 1 | 1 | 1.0000 | within noise |" in md
