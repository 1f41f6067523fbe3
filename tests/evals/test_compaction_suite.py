"""The compaction target: long conversations compacted through the pipeline's own path with the
provider's summarizer, scored on the summary by required phrases, superseded facts and, with
Claude, a judged rubric."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from evals.dataset import load_suite
from evals.dataset.compaction import CompactionCase, CompactionExpect
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.compaction import run_compaction
from evals.runner.judge import SKIPPED
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from evals.scorers import COMPACTION
from pipeline.prompting import default_library
from pipeline.providers.summarize import SummarizeRequest, Summary
from tests.evals.conftest import scripted, stand_in

SUITE = Path(__file__).resolve().parents[2] / "evals" / "suites" / "compaction.yaml"
LONG = "and the tiles for the kitchen are finally being laid next week by the fitter "


def _turns(n: int, first: str = "My sister Maud lands in Leeds on Sunday at 6pm") -> list[Any]:
    said: list[Any] = [{"operator": first}, {"companion": "I'll ask you on Monday how it went."}]
    for i in range(n - 2):
        role = "operator" if i % 2 == 0 else "companion"
        said.append({role: f"turn {i}: {LONG}"})
    return said


def _case(**fields: Any) -> CompactionCase:
    data: dict[str, Any] = {
        "id": "maud",
        "person": "Ana",
        "turns": _turns(20),
        "expect": {"facts": [["Maud"], "Leeds"], "threads": [["sunday", "6pm"]]},
    }
    return CompactionCase.model_validate(data | fields)


class Keeping:
    """A summarizer that keeps what it was asked, and answers with a fixed summary."""

    name = "keeping"

    def __init__(self, text: str) -> None:
        self.text = text
        self.requests: list[SummarizeRequest] = []

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.requests.append(request)
        return Summary(self.text, method="keeping (fixture, not a model)")


def _bound(summarizer: Any = None) -> Bound:
    return Bound("x", "x", "", "", None, None, default_library(), summarizer=summarizer)


def _run(case: CompactionCase, summarizer: Any = None) -> tuple[dict[str, Any], Any]:
    sandbox = Sandbox()
    try:
        outcome = run_compaction(case, _bound(summarizer), sandbox)
    finally:
        sandbox.close()
    return outcome.got, outcome


# --- the suite file -------------------------------------------------------------------------


def test_the_suite_has_long_varied_conversations() -> None:
    suite = load_suite(SUITE)
    assert suite.target == "compaction" and len(suite.cases) >= 12
    tags: set[str] = set()
    for case in suite.cases:
        assert isinstance(case, CompactionCase)
        assert sum(t.compact is None for t in case.turns) >= 20, case.id
        tags.update(case.tags)
    assert {"assistant", "companion", "project", "correction", "custom", "generic"} <= tags
    corrections = [c for c in suite.cases if "correction" in c.tags]
    assert corrections and all(c.expect.excludes for c in corrections)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"turns": _turns(19)}, "at least 20 turns"),
        ({"turns": [*_turns(20), {"compact": True}]}, "ends with a compaction"),
        ({"turns": [{"operator": "a", "companion": "b"}, *_turns(20)]}, "exactly one of"),
        ({"expect": {"excludes": ["x"]}}, "at least one of facts"),
        ({"expect": {"facts": [[]]}}, "at least 1 item"),
        ({"variant": "chatty"}, "generic"),
    ],
)
def test_a_malformed_case_names_what_is_wrong(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _case(**fields)


# --- scoring -------------------------------------------------------------------------------


def test_an_item_is_kept_by_any_of_its_alternatives_in_any_case() -> None:
    expect = CompactionExpect(facts=[["Maud", "her sister"], "LEEDS"], excludes=["York"])
    score = COMPACTION(expect, {"summary": "Her sister lands in leeds."})
    assert score.passed
    assert score.got["recall"] == {"kept": 2, "required": 2}


def test_a_missing_item_or_a_superseded_fact_fails_the_case_and_says_which() -> None:
    expect = CompactionExpect(facts=["Maud"], commitments=[["ask", "remind"]], excludes=["York"])
    score = COMPACTION(expect, {"summary": "Maud moved from York to Leeds."})
    assert not score.passed
    assert score.got["recall"] == {"kept": 1, "required": 2}
    assert "lacks commitment 'ask' or 'remind'" in score.why
    assert "keeps superseded 'York'" in score.why


def test_the_judges_verdicts_are_checks_when_there_is_a_rubric() -> None:
    expect = CompactionExpect(facts=["Maud"])
    rubric = {
        "items": [{"kind": "fact", "item": "Maud", "present": True, "evidence": "Maud"}],
        "faithful": False,
        "unsupported": ["Maud lives in York"],
    }
    score = COMPACTION(expect, {"summary": "Maud lives in York.", "rubric": rubric})
    assert [c.name for c in score.checks] == ["fact kept", "rubric fact", "rubric faithful"]
    assert score.why == "judge: unfaithful (Maud lives in York)"
    skipped = COMPACTION(expect, {"summary": "Maud.", "rubric": {"skipped": SKIPPED}})
    assert skipped.passed and [c.name for c in skipped.checks] == ["fact kept"]


# --- running through compact_if_due --------------------------------------------------------


def test_without_a_model_the_extractive_summarizer_writes_the_summary() -> None:
    got, outcome = _run(_case())
    assert outcome.error is None
    assert got["summarizer"] == outcome.model == "extractive (no model)"
    assert got["summary"].startswith("- Ana said: My sister Maud lands in Leeds")
    assert got["compactions"] == [
        {"after_turn": 20, "folded_turns": 18, "summarizer": "extractive (no model)",
         "measured_by": "estimate"}
    ]  # fmt: skip
    assert got["rubric"] == {"skipped": SKIPPED}
    assert [r.family for r in outcome.prompt_refs] == ["compaction/personal_assistant"]
    assert COMPACTION(_case().expect, got).passed


def test_a_compact_mark_folds_there_and_the_last_summary_folds_it() -> None:
    turns = _turns(20)
    case = _case(turns=[*turns[:12], {"compact": True}, *turns[12:]])
    writer = Keeping("Maud lands in Leeds on Sunday at 6pm.")
    got, outcome = _run(case, writer)
    assert outcome.error is None
    assert [c["after_turn"] for c in got["compactions"]] == [12, 20]
    # the first fold keeps two turns verbatim; the second folds them with the eight after
    assert [c["folded_turns"] for c in got["compactions"]] == [10, 8]
    first, second = writer.requests
    assert first.previous_summary == "" and second.previous_summary == writer.text
    assert got["summarizer"] == "keeping (fixture, not a model)"


def test_a_compact_mark_where_nothing_is_due_is_an_error_of_the_case() -> None:
    turns = _turns(20)
    _, outcome = _run(_case(turns=[*turns[:3], {"compact": True}, *turns[3:]]))
    assert outcome.error is not None
    assert "no compaction after turn 3" in outcome.error


def test_the_variant_and_custom_instructions_reach_the_summarizer() -> None:
    writer = Keeping("x")
    case = _case(variant="generic", instructions="Keep every medication dose exactly.")
    got, outcome = _run(case, writer)
    (request,) = writer.requests
    assert "Keep every medication dose exactly." in request.instructions
    assert "You are compacting a long conversation" in request.instructions
    assert [r.family for r in outcome.prompt_refs] == ["compaction/generic"]
    assert got["variant"] == "generic" and got["custom_instructions"] is True


def test_a_failing_summarizer_makes_an_error_row() -> None:
    from pipeline.errors import ProviderError

    class Down:
        name = "down"

        def summarize(self, request: SummarizeRequest) -> Summary:
            raise ProviderError("the model is not loaded", "load it")

    _, outcome = _run(_case(), Down())
    assert outcome.error is not None and "the model is not loaded" in outcome.error


def test_a_run_reports_the_summarizer_and_recall_of_each_row(make_suite: Any) -> None:
    case = _case().model_dump(mode="json", exclude_defaults=True)
    bad = _case(id="york", expect={"facts": ["Maud"], "excludes": ["Leeds"]})
    data = {
        "name": "tiny_compaction",
        "target": "compaction",
        "gate": {"accuracy": 0.5},
        "cases": [case, bad.model_dump(mode="json", exclude_defaults=True)],
    }
    config = RunConfig([load_suite(make_suite(data))], ["scripted"], concurrency=1)
    out = run_eval(EvalOptions(config, progress=False, registry=stand_in(scripted())))
    rows = {r["case_id"]: r for r in out.rows}
    assert rows["maud"]["status"] == "pass" and rows["york"]["status"] == "fail"
    assert rows["maud"]["model"] == "extractive (no model)"
    assert rows["maud"]["got"]["recall"] == {"kept": 3, "required": 3}
    assert rows["maud"]["scorer"] == {"name": "compaction_phrases", "version": 1}
    assert rows["york"]["why"] == "summary keeps superseded 'Leeds'"
    assert rows["maud"]["prompt"]["compaction/judge"] == "v1"  # one label for the suite
    (group,) = out.groups
    assert group.gate_failures == () and group.model == "extractive (no model)"
