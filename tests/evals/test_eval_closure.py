"""The closure target: annotated conversations through the real compression pipeline, scored on
entities, routing, thread resolution and the narrative, with the deterministic baseline beside
each model."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import SuiteError, load_suite
from evals.dataset.closure import ClosureCase, ClosureExpect
from evals.dataset.models import Gate
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.closure import compression_input
from evals.runner.closure_metrics import closure_metrics, f1_gate_failures, prf
from evals.scorers import CLOSURE
from pipeline.conversation_models import ENTITY_KINDS
from pipeline.providers.registry import REGISTRY, ProviderOptions, Providers, ProviderSpec
from pipeline.providers.structured import StructuredAnswer, StructuredRequest
from tests.evals.conftest import write_yaml

SUITE = Path(__file__).parents[2] / "evals" / "suites" / "conversation_closure.yaml"

EXPECT = ClosureExpect.model_validate(
    {
        "people": [{"name": "Dana", "alt": ["Dana's"]}, {"name": "Rob"}],
        "tasks": [{"any": ["call rob", "installer"]}],
        "decisions": [{"any": ["quartz"]}],
        "waiting_on": [{"any": ["template"]}],
        "questions_resolved": [],
        "questions_opened": [],
        "blockers_cleared": [],
        "insights": [],
        "absent": ["order the zellige"],
        "resolves": ["w1", "t1"],
        "keeps_open": ["q1"],
        "destination": "Kitchen renovation",
        "narrative_must": [{"any": ["quartz"]}, {"any": ["sink"]}],
    }
)
NARRATIVE = "Kel chose the quartz countertop and ordered the sink. Next is a call to Rob."


def extraction(**changes: Any) -> dict[str, Any]:
    """A perfect extraction for EXPECT, with `changes` applied."""
    entities: dict[str, list[str]] = {kind: [] for kind in ENTITY_KINDS}
    entities |= {
        "people": ["Dana (countertop supplier)", "Rob (installer)"],
        "tasks": ["Call Rob about the cabinets (open)"],
        "decisions": ["quartz countertop — because it is low-maintenance"],
        "waiting_on": ["Dana: the template date"],
    }
    entities |= changes.pop("entities", {})
    return {
        "entities": entities,
        "narrative": NARRATIVE,
        "resolved": ["t1", "w1"],
        "destination": "Kitchen renovation",
        **changes,
    }


def failed(score: Any) -> set[str]:
    return {c.name for c in score.checks if not c.passed}


def test_a_perfect_extraction_passes_with_full_precision_and_recall() -> None:
    score = CLOSURE(EXPECT, extraction())
    assert score.passed, score.why
    kinds = score.got["metrics"]["kinds"]
    for kind in ("people", "tasks", "decisions", "waiting_on"):
        c = kinds[kind]
        assert c["found"] == c["expected"] and c["matching"] == c["extracted"] > 0, kind
    assert score.got["metrics"]["narrative"]["covered"] == 2


def test_a_missing_entity_lowers_recall_but_not_the_verdict() -> None:
    score = CLOSURE(EXPECT, extraction(entities={"people": ["Dana"], "waiting_on": []}))
    assert score.passed, score.why
    kinds = score.got["metrics"]["kinds"]
    assert kinds["people"] == {"expected": 2, "found": 1, "extracted": 1, "matching": 1}
    assert kinds["waiting_on"] == {"expected": 1, "found": 0, "extracted": 0, "matching": 0}


def test_an_extra_entity_lowers_precision() -> None:
    extra = ["quartz countertop", "paint the hallway"]
    score = CLOSURE(EXPECT, extraction(entities={"decisions": extra, "insights": ["tile"]}))
    kinds = score.got["metrics"]["kinds"]
    assert kinds["decisions"] == {"expected": 1, "found": 1, "extracted": 2, "matching": 1}
    assert kinds["insights"] == {"expected": 0, "found": 0, "extracted": 1, "matching": 0}


def test_an_absent_phrase_in_any_kind_fails_the_case() -> None:
    score = CLOSURE(EXPECT, extraction(entities={"insights": ["I should order the zellige"]}))
    assert failed(score) == {"absent"}
    assert "'order the zellige' in insights" in score.why


def test_a_wrong_destination_fails_the_case() -> None:
    score = CLOSURE(EXPECT, extraction(destination="Your Story"))
    assert failed(score) == {"routing"}
    assert "routed to 'Your Story', not 'Kitchen renovation'" in score.why


def test_resolving_a_kept_open_item_or_missing_one_fails_the_case() -> None:
    over = CLOSURE(EXPECT, extraction(resolved=["q1", "t1", "w1"]))
    assert failed(over) == {"resolution"}
    res = over.got["metrics"]["resolution"]
    assert (res["correct"], res["wrong"], res["missed"]) == (2, 1, 0)
    assert res["kept_open_resolved"] == ["q1"]
    under = CLOSURE(EXPECT, extraction(resolved=["w1"]))
    assert failed(under) == {"resolution"} and "missed ['t1']" in under.why


def test_a_narrative_outside_the_format_fails_the_case() -> None:
    one = CLOSURE(EXPECT, extraction(narrative="Kel chose quartz"))
    assert failed(one) == {"narrative_format"}
    long = CLOSURE(EXPECT, extraction(narrative="Quartz. " + "x" * 700 + ". Sink."))
    assert failed(long) == {"narrative_format"}


def test_pooled_f1_its_bootstrap_interval_and_the_f1_gate() -> None:
    assert prf([{"expected": 2, "found": 1, "extracted": 1, "matching": 1}]) == (1.0, 0.5, 2 / 3)
    assert prf([{"expected": 0, "found": 0, "extracted": 0, "matching": 0}])[2] is None
    rows = [
        {"status": "pass", "got": CLOSURE(EXPECT, extraction()).got},
        {"status": "fail", "got": CLOSURE(EXPECT, extraction(entities={"people": []})).got},
        {"status": "error", "got": {}},
    ]
    m = closure_metrics(rows)
    people = m["entities"]["people"]
    assert m["cases"] == 2 and (people["expected"], people["found"]) == (4, 2)
    assert people["precision"] == 1.0 and people["recall"] == 0.5
    lo, hi = people["f1_ci95"]
    assert lo <= people["f1"] <= hi
    # the seed and the case order make the interval the same on every build
    ids = [{**row, "case_id": name} for row, name in zip(rows, "abc", strict=True)]
    assert closure_metrics(ids) == closure_metrics(list(reversed(ids)))
    gate = Gate(f1={"people": 0.9, "tasks": 0.5, "insights": 0.1})
    failures = f1_gate_failures("s on p", m, gate)
    assert failures == [
        "s on p: people F1 0.667 < gate 0.900",
        "s on p: insights F1 not measurable (nothing expected or extracted)",
    ]


def test_the_suite_loads_and_its_ids_map_to_the_pipelines_open_items() -> None:
    suite = load_suite(SUITE)
    assert suite.target == "closure" and len(suite.cases) == 44
    case = suite.case("kitchen-countertop-quote")
    assert isinstance(case, ClosureCase)
    data, ids = compression_input(case)
    assert [(i.id, i.kind, i.text) for i in data.open_items] == [
        (1, "waiting_on", "Dana: quote for the countertop"),
        (2, "questions_opened", "Which tile for the backsplash?"),
        (3, "tasks", "Order the sink"),
    ]
    assert ids == {1: "w1", 2: "q1", 3: "t1"}
    assert data.destinations == ("Your Story", "Kitchen renovation", "Thesis")
    assert data.turns[0][0] == "operator" and data.turns[1][0] == "companion"


def test_a_case_naming_an_unknown_open_id_is_a_load_error(tmp_path: Path) -> None:
    raw = yaml.safe_load(SUITE.read_text(encoding="utf-8"))
    raw["cases"] = raw["cases"][:1]
    raw["cases"][0]["expect"]["resolves"] = ["w9"]
    with pytest.raises(SuiteError, match="open_state ids that do not exist: \\['w9'\\]"):
        load_suite(write_yaml(tmp_path / "bad.yaml", raw))


def small_suite(tmp_path: Path, n: int = 3, gate: dict[str, Any] | None = None) -> Path:
    raw = yaml.safe_load(SUITE.read_text(encoding="utf-8"))
    raw["name"] = "closure_small"
    raw["cases"] = raw["cases"][:n]
    if gate is not None:
        raw["gate"] = gate
    return write_yaml(tmp_path / "closure_small.yaml", raw)


class FixtureGenerator:
    """Answers each compression stage from fixed JSON by its schema name (not a model)."""

    name = "fixture"

    def __init__(self, answers: dict[str, dict[str, Any]]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        self.asked.append(request.schema_name)
        return StructuredAnswer(json.dumps(self.answers[request.schema_name]), "fixture answers")


def registry_with(generator: FixtureGenerator) -> dict[str, ProviderSpec]:
    def factory(options: ProviderOptions) -> Providers:
        built = REGISTRY["local"].factory(options)
        return replace(built, label="fixture (fixture answers, not a model)", structured=generator)

    return {**REGISTRY, "local": replace(REGISTRY["local"], factory=factory)}


def test_the_default_run_scores_the_deterministic_baseline_only(tmp_path: Path) -> None:
    out = run_eval(
        EvalOptions(
            RunConfig(suites=[load_suite(small_suite(tmp_path))], providers=["local"]),
            progress=False,
        )
    )
    assert {r["provider"] for r in out.rows} == {"pipeline"}  # local lends no generator
    assert len(out.rows) == 3 and all(r["status"] != "error" for r in out.rows)
    row = next(r for r in out.rows if r["case_id"] == "kitchen-countertop-quote")
    assert row["scorer"] == {"name": "closure_extraction", "version": 1}
    assert {s["method"] for s in row["got"]["stages"]} == {"deterministic (no model)"}
    assert [c["name"] for c in row["checks"]] == [
        "absent",
        "routing",
        "resolution",
        "narrative_format",
    ]
    (group,) = out.groups
    assert group.metrics is not None and group.metrics["cases"] == 3
    assert group.label == "pipeline (deterministic code, no model)"


def test_a_model_row_is_scored_beside_the_baseline_and_gated_on_f1(tmp_path: Path) -> None:
    entities = {kind: [] for kind in ENTITY_KINDS} | {
        "decisions": [{"what": "quartz countertop", "why": "low-maintenance"}],
        "people": [{"name": "Dana", "context": "", "relation": ""}],
    }
    generator = FixtureGenerator(
        {
            "conversation_entities": entities,
            "conversation_narrative": {"narrative": "Kel chose quartz. The sink is ordered."},
            "conversation_deltas": {"resolved": [{"entity_id": 1, "reason": "quote arrived"}]},
            "conversation_routing": {
                "destination": "Kitchen renovation",
                "confidence": 0.9,
                "reasoning": "the kitchen",
            },
        }
    )
    path = small_suite(tmp_path, n=1, gate={"f1": {"decisions": 0.9, "people": 0.9}})
    out = run_eval(
        EvalOptions(
            RunConfig(suites=[load_suite(path)], providers=["local"]),
            progress=False,
            registry=registry_with(generator),
        )
    )
    rows = {r["provider"]: r for r in out.rows}
    assert set(rows) == {"pipeline", "local"}
    model = rows["local"]
    assert generator.asked == [
        "conversation_entities",
        "conversation_narrative",
        "conversation_deltas",
        "conversation_routing",
    ]
    assert (
        model["got"]["resolved"] == ["w1"] and model["got"]["destination"] == "Kitchen renovation"
    )
    # w1 resolved, t1 missed: the case fails on resolution only
    assert [c["name"] for c in model["checks"] if not c["pass"]] == ["resolution"]
    groups = {g.provider: g for g in out.groups}
    assert groups["local"].metrics["entities"]["decisions"]["f1"] == 1.0
    assert groups["local"].gate_failures == (
        "closure_small on local: people F1 0.667 < gate 0.900",
    )
    assert {s["method"] for s in model["got"]["stages"]} == {"fixture answers"}
    assert {s["method"] for s in rows["pipeline"]["got"]["stages"]} == {"deterministic (no model)"}
    report = build_report(out.run.run_id).markdown.read_text(encoding="utf-8")
    assert "## Conversation closure" in report
    assert "pipeline (deterministic code, no model)" in report
    assert "fixture (fixture answers, not a model)" in report
    assert "**F1 per entity kind**: FAIL — closure_small on pipeline: people F1 0.000" in report


# A phrase of each stage's template, so each synthetic answer serves only its stage.
STAGE_PHRASES = {
    "conversation_entities": "extracting what it holds",
    "conversation_narrative": "the memory a thoughtful friend would keep",
    "conversation_deltas": "updating the open threads",
    "conversation_routing": "choosing where the memory",
}
SYNTHETIC = {
    "conversation_entities": {kind: [] for kind in ENTITY_KINDS}
    | {"decisions": [{"what": "the quartz countertop", "why": ""}]},
    "conversation_narrative": {"narrative": "A decision was made. Work goes on."},
    "conversation_deltas": {"resolved": [{"entity_id": 1, "reason": "it arrived"}]},
    "conversation_routing": {"destination": "Your Story", "confidence": 0.5, "reasoning": "x"},
}


def test_synthetic_claude_closure_is_recorded_and_replayed_through_the_loopback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Claude plumbing of the closure target: `converse record --synthetic` records the
    stages' calls through the real SDK against the loopback server, and `converse eval
    --provider claude` (no key) replays them beside the deterministic baseline."""
    pytest.importorskip("vcr")
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(tmp_path / "fixtures"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    path = small_suite(tmp_path, n=2)
    answers = write_yaml(
        tmp_path / "answers.yaml",
        {
            "answers": [
                {"kind": "classify", "system_contains": STAGE_PHRASES[f], "tool_input": answer}
                for f, answer in SYNTHETIC.items()
            ]
        },
    )
    runner = CliRunner()
    recorded = runner.invoke(app, ["record", "--suite", str(path), "--synthetic", str(answers)])
    assert recorded.exit_code == 0, recorded.output
    assert "compressed -> Your Story" in recorded.output
    cassette = tmp_path / "fixtures" / "cassettes" / "synthetic" / "suites" / "closure_small.yaml"
    assert "synthetic-fixture" in cassette.read_text(encoding="utf-8")

    result = runner.invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude",
         "--suite", str(path)],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    results = {r["provider"]: r for r in json.loads(result.stdout)["results"]}
    assert set(results) == {"pipeline", "claude"}
    claude = results["claude"]
    assert claude["provider_label"].endswith("(replayed from synthetic cassettes)")
    assert (claude["n"], claude["errors"]) == (2, 0) and claude["model"] == "synthetic-fixture"
    assert claude["metrics"]["entities"]["decisions"]["extracted"] == 2
    rows = [
        json.loads(line)
        for line in next((tmp_path / "reports" / "runs").glob("*/results.jsonl")).open()
    ]
    claude_rows = [r for r in rows if r["provider"] == "claude"]
    assert len(claude_rows) == 2
    for row in claude_rows:
        methods = {s["method"] for s in row["got"]["stages"]}
        assert methods == {"claude synthetic-fixture"}, row["got"]["stages"]
        assert row["got"]["destination"] == "Your Story" and row["got"]["resolved"] == ["w1"]
        assert row["tokens"]["input"] > 0 and row["cassette"] == str(cassette)


def test_a_closure_suite_is_not_exported_to_promptfoo(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "export",
            "promptfoo",
            "--suite",
            str(small_suite(tmp_path)),
            "--out",
            str(tmp_path / "pf"),
        ],
    )
    assert result.exit_code == 2
    assert "is a closure suite" in result.output and not (tmp_path / "pf").exists()
