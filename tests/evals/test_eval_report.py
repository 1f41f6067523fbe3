"""Reports: tables per suite x provider x prompt, tags, heatmaps, failures, comparisons."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import stand_in

SVG = "{http://www.w3.org/2000/svg}"


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
    return run_eval(
        EvalOptions(cfg, run_id=run_id, progress=False, registry=stand_in(provider, label))
    )


def test_report_has_every_table_with_provider_labels(ten_cases):
    run_with(ten_cases, right=range(7), run_id="r1", epochs=2)
    built = build_report("r1")
    md = built.markdown.read_text()
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    # failures come right after the summary; the detail follows
    assert headings == ["## Gates", "## Summary", "## Failed cases", "## Errors",
                        "## Accuracy per tag", "## Confusion matrices", "## Agreement across epochs",
                        "## Latency and tokens", "## Cost", "## Reviews", "## Run"]  # fmt: skip
    assert "- **accuracy**: PASS — held in 1 of 1 suite × provider group(s)" in md
    assert "- **critical_failures**: no bound — no suite sets this bound" in md
    # 14 of 20 rows pass; Wilson 95% interval of 14/20 is 48.1% – 85.5%
    assert (
        "| ten | scripted (fixture answers, not a model) | knows-fixture | - | 20 | 14 | 6 | 0 | 0 | 70.0% | 48.1% – 85.5% | mean of 2: 70.0% | pass (≥ 50%) |"
        in md
    )
    # per tag: one table per group, named once, worst tag first
    per_tag = md.split("## Accuracy per tag")[1].split("\n## ")[0]
    assert (
        "**ten — scripted (fixture answers, not a model) — prompt -: 2 tags; lowest: odd 60.0% of 10**"
        in per_tag
    )
    assert per_tag.index("| odd | 10 | 6 | 0 | 60.0% |") < per_tag.index(
        "| even | 10 | 8 | 0 | 80.0% |"
    )
    assert (
        "| ten | scripted (fixture answers, not a model) | - | 10 | 2 | 100.0% | 70.0% | 70.0% |"
        in md
    )
    failed = md.split("## Failed cases")[1].split("\n## ")[0]
    assert "3 failing case(s), 3 without a reviewer verdict" in failed
    assert "**ten — scripted (fixture answers, not a model) — prompt - (6 failed)**" in failed
    assert (
        "| c9 | 1 | fact 9 [project: Garden] | add_knowledge | general_conversation | intent general_conversation, expected add_knowledge | not reviewed |"
        in failed
    )
    heatmaps = list(built.markdown.parent.glob("confusion-*.svg"))
    assert len(heatmaps) == 1 and f"]({heatmaps[0].name})" in md
    svg = ElementTree.fromstring(heatmaps[0].read_text())  # well-formed XML
    cells = [t.text for t in svg.iter(f"{SVG}title")]
    assert cells[:2] == [  # 14 of 20 rows right, the other 6 answered general_conversation
        "add_knowledge → add_knowledge: 14",
        "add_knowledge → general_conversation: 6",
    ]
    html = built.html.read_text()
    assert html.count('<div class="scroll"><table>') >= 6
    assert 'src="data:image/svg+xml;base64,' in html
    assert '<a href="#failed-cases">Failed cases</a>' in html and '<h2 id="failed-cases">' in html
    # the provider label is in every table that has rows, or in the line naming its group
    for block in md.split("\n\n"):
        if block.startswith("| Suite |") and "\n|---" in block and block.count("\n") >= 2:
            assert "not a model" in block, block


def test_html_shortens_long_labels_with_the_full_text_on_hover(ten_cases):
    provider = Knows({"fact 1"})
    label = 'scripted <b>"fixture"</b> (a long description of where the answers come from)'
    cfg = RunConfig([ten_cases], ["scripted"], use_cache=False)
    run_eval(EvalOptions(cfg, run_id="r2", progress=False, registry=stand_in(provider, label)))
    html = build_report("r2").html.read_text()
    full = "scripted &lt;b&gt;&quot;fixture&quot;&lt;/b&gt; (a long description of where the answers come from)"
    assert (
        f'<span title="{full}">scripted &lt;b&gt;&quot;fixture&quot;&lt;/b&gt; (…)</span>' in html
    )
    assert '<b>"fixture"</b>' not in html


def test_small_tags_are_folded_apart_and_groups_are_collapsed(make_suite):
    cases = [
        {"id": f"c{i}", "tags": ["big"] + (["tiny"] if i < 2 else []), "project": "Garden",
         "message": f"fact {i}", "expect": {"intent": "add_knowledge"}}
        for i in range(6)
    ]  # fmt: skip
    suite = load_suite(make_suite({"name": "tags", "target": "classify", "cases": cases}))
    run_with(suite, right={2, 3, 4, 5}, run_id="r3")
    built = build_report("r3")
    per_tag = built.markdown.read_text().split("## Accuracy per tag")[1].split("\n## ")[0]
    assert "**1 tag(s) with fewer than 5 scored cases**" in per_tag
    assert (
        per_tag.index("| big | 6 | 4 |")
        < per_tag.index("**1 tag(s) with fewer")
        < per_tag.index("| tiny | 2 | 0 |")
    )
    html = built.html.read_text().split('id="accuracy-per-tag"')[1].split("<h2")[0]
    assert html.count("<details>") == 2 and "<details open>" not in html


def test_compare_lists_regressions_and_fixes_with_mcnemar(ten_cases):
    run_with(ten_cases, right={0, 1}, run_id="base")
    run_with(ten_cases, right=set(range(1, 10)), run_id="new")
    md = build_report("new", compare="base").markdown.read_text()
    # c0 regressed, c2..c9 fixed: exact McNemar p = 2 * P(X <= 1), X ~ Bin(9, 0.5) = 20/512
    assert (
        "| ten | scripted (fixture answers, not a model) | knows-fixture | - | nothing recorded | 10 | 20.0% | 90.0% | +70.0% | 1 | 8 | 0.0391 | ±74.4 pts | 0 counted | 0 / 0 | finding: better |"
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
    assert "| 1 | 1 | 1.0000 | ±61.6 pts | 0 counted | 0 / 0 | within noise |" in md


def test_the_comparison_is_remembered_until_forgotten(ten_cases, reports_root):
    run_with(ten_cases, right={0, 1}, run_id="20260101-000000-0001")
    run_with(ten_cases, right=set(range(1, 10)), run_id="20260101-000000-0002")
    built = build_report("20260101-000000-0002", compare="20260101-000000-0001")
    assert built.comparison is not None and len(built.comparison.fixes) == 8
    rebuilt = build_report("20260101-000000-0002")  # no --compare: the comparison stays
    md = rebuilt.markdown.read_text()
    assert "## Comparison with the baseline" in md and "### Regressions" in md
    assert "remembered from an earlier `converse report RUN --compare OTHER`" in md
    tags = md.split("### Per tag against the baseline")[1].split("###")[0]
    even = "| ten | scripted (fixture answers, not a model) | even | 5 | 20.0% | 80.0% | +60.0% | 1 | 4 |"
    odd = "| ten | scripted (fixture answers, not a model) | odd | 5 | 20.0% | 100.0% | +80.0% | 0 | 4 |"
    assert tags.index(even) < tags.index(odd)  # the smallest gain (largest drop) first
    forgotten = build_report("20260101-000000-0002", forget_compare=True)
    assert forgotten.comparison is None
    assert "Comparison" not in forgotten.markdown.read_text()
    assert "Comparison" not in build_report("20260101-000000-0002").markdown.read_text()


def test_a_remembered_baseline_that_is_gone_is_named_in_the_report(ten_cases, reports_root):
    import shutil

    run_with(ten_cases, right={0, 1}, run_id="20260101-000000-0001")
    run_with(ten_cases, right={1, 2}, run_id="20260101-000000-0002")
    build_report("20260101-000000-0002", compare="20260101-000000-0001")
    shutil.rmtree(reports_root / "runs" / "20260101-000000-0001")
    md = build_report("20260101-000000-0002").markdown.read_text()
    assert "compared with run `20260101-000000-0001`, which no longer exists" in md


def test_report_compare_prints_the_summary_in_the_terminal(ten_cases):
    from typer.testing import CliRunner

    from evals.cli import app

    run_with(ten_cases, right={0, 1}, run_id="20260101-000000-0001")
    run_with(ten_cases, right=set(range(1, 10)), run_id="20260101-000000-0002")
    args = ["report", "20260101-000000-0002", "--compare", "20260101-000000-0001"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "compared with baseline run 20260101-000000-0001"
    assert lines[1].split() == ["suite", "provider", "model", "shared", "baseline", "this", "run",
                                "change", "McNemar", "p", "regressions", "fixes", "MDE",
                                "verdict"]  # fmt: skip
    assert lines[2].split() == ["ten", "scripted", "(…)", "knows-fixture", "10", "20.0%", "90.0%", "+70.0%",
                                "0.0391", "1", "8", "±74.4", "pts", "finding:",
                                "better"]  # fmt: skip
    assert lines[3] == "1 regression(s), 8 fix(es) in all"
    assert lines[4] == "flaky cases (--flaky count): 0 counted at their majority verdict"
    assert lines[5] == (
        "ten on scripted (…): finding: better: +70.0 points (McNemar exact p 0.0391); at 10 "
        "shared cases and observed discordance 90%, changes of 74.4 points or more are "
        "detectable (80% power, α 0.05, Connor (1987) normal approximation for McNemar's test)"
    )
    assert lines[6] == "  changed besides the cases: nothing recorded"
    assert lines[7].startswith("report: ")


def test_a_failed_gate_heads_the_report_with_what_broke_it(make_suite):
    cases = [
        {"id": f"c{i}", "tags": ["critical"] if i == 0 else [], "project": "Garden",
         "message": f"fact {i}", "expect": {"intent": "add_knowledge"}}
        for i in range(4)
    ]  # fmt: skip
    gate = {"accuracy": 0.9, "critical_failures": 0}
    suite = load_suite(
        make_suite({"name": "gated", "target": "classify", "gate": gate, "cases": cases})
    )
    run_with(suite, right={1, 2}, run_id="r4")
    built = build_report("r4")
    md = built.markdown.read_text()
    gates = md.split("## Gates")[1].split("\n## ")[0]
    assert "- **accuracy**: FAIL — gated on scripted: 50.0% < 90.0%" in gates
    assert "- **critical_failures**: FAIL — gated on scripted: 1 > 0" in gates
    assert "- **errors**: PASS — held in 1 of 1 suite × provider group(s)" in gates
    html = built.html.read_text()
    assert '<li class="fail"><b>accuracy</b>FAIL' in html
    assert '<li class="pass"><b>errors</b>PASS' in html
