"""The conversation target: whole conversations on a fresh store, scored on the memory they leave."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import SuiteError, load_suite
from evals.dataset.conversation import ConversationCase
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.scorers import CONVERSATION
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from tests.evals.conftest import Counting, stand_in, write_yaml

LILA = "My daughter Lila is five and loves picking strawberries"
SCRIPT = [
    ScriptEntry(LILA, "remember_about_me",
                {"personal_fact": "Your daughter Lila is five and loves picking strawberries"}),
    ScriptEntry("no, actually she's six", "remember_about_me",
                {"personal_fact": "Your daughter Lila is six and loves picking strawberries"},
                after="remember_about_me", reading={"relation": "correct"}),
    ScriptEntry("yes", "remember_about_me", {}, after="remember_about_me"),
    ScriptEntry("Add compost in spring", "add_knowledge", {"knowledge": "Add compost in spring"}),
    ScriptEntry("I <b>love</b> tea", "remember_about_me", {"personal_fact": "You <b>love</b> tea"}),
]  # fmt: skip
GARDEN = "Backyard garden"


def provider() -> Counting:
    return Counting(ScriptedProvider(list(SCRIPT)))


def turn(message: str, **expect: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"message": message, "project": GARDEN}
    if expect:
        out["expect"] = expect
    return out


def held(*words: str, state: str | None = "held", **text: list[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"text": {"contains": list(words), **text}}
    return entry if state is None else {"state": state, **entry}


REFINE = {
    "id": "refine-daughter-age",
    "tags": ["refine", "critical"],
    "memories": [{"content": "Your birthday is March 15th", "age": "3 days"}],
    "notes": [{"project": GARDEN, "content": "Tomatoes need full sun"}],
    "turns": [
        turn(LILA, action="held", memory=[held("lila", "five", "strawberries")]),
        turn("no, actually she's six", action="refined", memory_only=True,
             memory=[held("lila", "six", excludes=["five"]), held("march", state=None)]),
        turn("yes", intent="remember_about_me", memory=[held("six", state="committed")],
             reply={"excludes": ["remember_about_me", "{", "}"]}),
        turn("Add compost in spring",
             notes=[held("compost"), held("tomatoes", state="committed")]),
        {"erase": "strawberries", "expect": {"memory": [held("march", state=None)],
                                             "memory_only": True}},
    ],
}  # fmt: skip


def suite(*cases: dict[str, Any], gate: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "talks", "target": "conversation", "cases": list(cases)}
    if gate is not None:
        data["gate"] = gate
    return data


def run(make_suite: Any, data: dict[str, Any], counting: Counting | None = None) -> Any:
    cfg = RunConfig([load_suite(make_suite(data))], ["scripted"], concurrency=1)
    return run_eval(EvalOptions(cfg, progress=False, registry=stand_in(counting or provider())))


def test_a_conversation_passes_and_its_row_carries_the_transcript(make_suite):
    out = run(make_suite, suite(REFINE, gate={"accuracy": 0.9, "critical_failures": 0}))
    (row,) = out.rows
    assert row["status"] == "pass", row["why"]
    assert row["scorer"] == {"name": "conversation_memory", "version": 1}
    turns = row["got"]["turns"]
    assert [t.get("message", t.get("erase")) for t in turns] == [
        LILA, "no, actually she's six", "yes", "Add compost in spring", "strawberries",
    ]  # fmt: skip
    assert [t.get("action") for t in turns[:4]] == ["held", "refined", "committed", "held"]
    assert turns[1]["memory"] == [
        {"number": 1, "state": "committed", "content": "Your birthday is March 15th"},
        {"number": 2, "state": "held",
         "content": "Your daughter Lila is six and loves picking strawberries"},
    ]  # fmt: skip
    assert turns[3]["notes"][1] == {
        "number": 2,
        "state": "held",
        "content": "Add compost in spring",
    }
    assert turns[4]["erased"]["number"] == 2 and len(turns[4]["memory"]) == 1
    assert {c["turn"] for c in row["checks"]} == {1, 2, 3, 4, 5}
    assert len(json.dumps(row)) < 12_000
    (group,) = out.groups
    assert group.gate_passed and group.critical_failures == 0


def test_every_conversation_of_a_run_is_grouped_under_one_prompt_label(make_suite):
    tea = {"id": "tea", "turns": [turn("I <b>love</b> tea")]}
    out = run(make_suite, suite(REFINE, tea))
    assert len({json.dumps(r["prompt"], sort_keys=True) for r in out.rows}) == 1
    assert out.rows[0]["prompt"]["prompts"].startswith("active set ")
    used = {r["case_id"]: {p["family"] for p in r["prompts"]} for r in out.rows}
    assert "instructions/add_knowledge" in used["refine-daughter-age"]
    assert "instructions/add_knowledge" not in used["tea"]  # prompts lists only what was used
    assert len(out.groups) == 1


def test_conversations_are_never_served_from_the_cache(make_suite):
    counting = provider()
    run(make_suite, suite(REFINE), counting)
    run(make_suite, suite(REFINE), counting)
    assert counting.calls == 8  # four messages, asked again on the second run
    again = run(make_suite, suite(REFINE))
    assert again.rows[0]["cached"] is False


@pytest.mark.parametrize(
    ("case_turns", "field", "message"),
    [
        ([{"message": "hi", "expect": {"memroy": []}}], "turns.0.message.expect.memroy",
         "Extra inputs are not permitted"),
        ([{"message": "hi", "expect": {"notes": []}}], "turns.0.message",
         "expect.notes checks the turn's project knowledge; set `project`"),
        ([{"erase": "tea", "expect": {"intent": "remember_about_me"}}],
         "turns.0.erase.expect.intent", "Extra inputs are not permitted"),
        ([], "turns", "at least 1 item"),
    ],
)  # fmt: skip
def test_malformed_conversations_name_the_file_case_and_field(
    make_suite, case_turns, field, message
):
    path = make_suite(suite({"id": "bad-one", "turns": case_turns}))
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert f"{path}: case 'bad-one': field {field}: " in str(caught.value)
    assert message in str(caught.value)


def score(turns: list[dict[str, Any]], after: list[dict[str, Any]]) -> Any:
    case = ConversationCase.model_validate({"id": "c", "turns": turns})
    record = {"turn": 1, "message": "hi", "memory": after}
    return CONVERSATION(case.expect, {"turns": [record]})


def fact(number: int, state: str, content: str) -> dict[str, Any]:
    return {"number": number, "state": state, "content": content}


def test_entries_are_matched_to_distinct_facts_by_a_maximum_matching():
    facts = [fact(1, "held", "Lila is six"), fact(2, "held", "Lila likes berries")]
    # a greedy pass would give #1 to the first entry and leave the second with nothing
    entries = [held("lila", state=None), held("lila", "six", state=None)]
    passed = score([{"message": "hi", "expect": {"memory": entries}}], facts)
    assert passed.passed, passed.why
    assert [c.got for c in passed.checks] == ["#2 held: Lila likes berries", "#1 held: Lila is six"]

    both_six = [held("six", state=None), held("lila", "six", state=None)]
    failed = score([{"message": "hi", "expect": {"memory": both_six}}], facts)
    assert failed.why == (
        "turn 1: memory has a held or committed fact with [lila, six] only in #1, "
        "each matched by another entry"
    )


def test_memory_only_and_states():
    facts = [
        fact(1, "committed", "Lila is six"),
        fact(2, "retracted", "Lila is five"),
        fact(3, "held", "You like tea"),
    ]
    only = {"message": "hi", "expect": {"memory": [held("lila", state=None)], "memory_only": True}}
    result = score([only], facts)
    assert (
        result.why == "turn 1: memory also holds #3 held: You like tea"
    )  # retracted #2 is not live
    no_state = score([{"message": "hi", "expect": {"memory": [held("five", state=None)]}}], facts)
    assert no_state.why == "turn 1: memory has no held or committed fact with [five]"
    alone = score([{"message": "hi", "expect": {"memory_only": True}}], facts)
    assert alone.why == (
        "turn 1: memory also holds #1 committed: Lila is six; #3 held: You like tea"
    )
    retracted = score(
        [{"message": "hi", "expect": {"memory": [held("five", state="retracted")]}}], facts
    )
    assert retracted.passed


def test_a_failed_critical_case_fails_the_gate_everywhere(make_suite, script_file, tmp_path):
    wrong = {**REFINE, "turns": [turn(LILA, memory=[held("six")])]}
    data = suite(wrong, gate={"accuracy": 0.0, "critical_failures": 0})
    out = run(make_suite, data)
    (group,) = out.groups
    assert group.critical_failures == 1
    assert group.gate_failures == ("talks on scripted: critical_failures 1 > bound 0",)
    assert group.as_json()["critical_failures"] == 1

    # the same failure without the critical tag leaves the gate alone
    calm = run(
        make_suite, suite({**wrong, "tags": []}, gate={"accuracy": 0.0, "critical_failures": 0})
    )
    assert calm.groups[0].critical_failures == 0 and calm.groups[0].gate_passed


def test_cli_exits_one_naming_critical_failures_in_json_and_junit(make_suite, tmp_path):
    script = write_yaml(tmp_path / "lila.yaml", {"turns": [
        {"message": e.message, "intent": e.intent, "params": e.params, "after": e.after}
        for e in SCRIPT
    ]})  # fmt: skip
    wrong = {**REFINE, "turns": [turn(LILA, memory=[held("six")])]}
    path = make_suite(suite(wrong, gate={"critical_failures": 0}))
    junit = tmp_path / "junit.xml"
    result = CliRunner().invoke(app, [
        "eval", "--suite", str(path), "--provider", "scripted", "--script", str(script),
        "--json", "--junit", str(junit), "--no-report", "--no-progress",
    ])  # fmt: skip
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert payload["gate_failures"] == ["talks on scripted: critical_failures 1 > bound 0"]
    assert payload["results"][0]["critical_failures"] == 1
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert props["critical_failures"] == "1"


def test_erase_turns_need_exactly_one_match(make_suite):
    tea = {"content": "You like green tea", "age": "2 days"}
    cases = [
        {"id": "none", "memories": [tea], "turns": [{"erase": "coffee"}]},
        {"id": "two", "memories": [tea, {"content": "You like black tea", "age": "1 day"}],
         "turns": [{"erase": "tea"}]},
        {"id": "one", "memories": [tea], "turns": [
            {"erase": "GREEN", "expect": {"memory": [], "memory_only": True}}]},
    ]  # fmt: skip
    out = run(make_suite, suite(*cases))
    rows = {r["case_id"]: r for r in out.rows}
    assert rows["one"]["status"] == "pass", rows["one"]["why"]
    assert rows["none"]["status"] == "error"
    assert rows["none"]["error"] == (
        "turn 1: SuiteError: erase 'coffee' matches 0 personal facts — an erase turn names text "
        "found in exactly one personal fact"
    )
    assert rows["two"]["status"] == "error"
    assert (
        "matches 2 personal facts (#1 'You like green tea'; #2 'You like black tea')"
        in (rows["two"]["error"])
    )


def test_a_turn_that_fails_errors_the_case_and_keeps_the_turns_before(make_suite):
    case = {"id": "boom", "turns": [turn(LILA), turn("unscripted words", memory=[]), turn("yes")]}
    out = run(make_suite, suite(case))
    (row,) = out.rows
    assert row["status"] == "error"
    assert row["error"] == "turn 2: no scripted entry for 'unscripted words'"
    assert [t["turn"] for t in row["got"]["turns"]] == [1, 2]

    raising = {"id": "raises", "turns": [turn(LILA), turn("yes")]}
    out = run(
        make_suite, suite(raising), Counting(ScriptedProvider(list(SCRIPT)), raise_on={"yes"})
    )
    assert out.rows[0]["error"] == "turn 2: TimeoutError: provider timed out"


def test_an_ungated_suite_whose_cases_all_errored_fails_the_default_error_gate(make_suite):
    out = run(make_suite, suite({"id": "none", "turns": [{"erase": "coffee"}]}))
    (group,) = out.groups
    assert group.gate is None and group.errors == 1
    assert group.gate_failures == ("talks on scripted: 1 errors > bound 0",)


def test_the_report_shows_a_failing_conversation_as_a_transcript(make_suite, reports_root):
    from evals.report import build_report

    failing = {
        **REFINE,
        "turns": [
            turn(LILA),
            turn("no, actually she's six", memory=[held("five")]),
            turn("I <b>love</b> tea"),
        ],
    }
    out = run(make_suite, suite(failing))
    built = build_report(out.run.run_id)
    md = built.markdown.read_text(encoding="utf-8")
    section = md.split("## Failed conversations", 1)[1]
    assert "Before turn 1: personal memory #1 committed: Your birthday is March 15th" in section
    lines = {line.split(" | ")[0]: line for line in section.splitlines() if line.startswith("| ")}
    assert "+ #2 held: Your daughter Lila is five" in lines["| 1"]
    assert "~ #2 'Your daughter Lila is five and loves picking strawberries' → " in lines["| 2 ✗"]
    assert "✗ memory has no held fact with [five]" in lines["| 2 ✗"]
    assert "| 3 |" in section  # the turn after the failure is shown, unmarked
    page = built.html.read_text(encoding="utf-8")
    assert "I &lt;b&gt;love&lt;/b&gt; tea" in page and "<b>love</b>" not in page
    assert "refine-daughter-age" not in md.split("## Failed cases", 1)[1].split("## Failed conv")[0]


@pytest.mark.slow
def test_the_local_provider_remembers_confirms_and_forgets_across_turns(make_suite):
    def garden(message: str, **expect: Any) -> dict[str, Any]:
        return {"message": message, "project": "Garden", "expect": expect}

    peanuts = {"text": {"contains": ["peanuts"]}}
    case = {"id": "remember-then-forget", "turns": [
        garden("I'm allergic to peanuts", intent="remember_about_me", action="held",
               memory=[{"state": "held", **peanuts}], memory_only=True),
        garden("yes", action="committed", memory=[{"state": "committed", **peanuts}]),
        garden("please forget that I'm allergic to peanuts", intent="forget_about_me",
               action="confirm_retraction"),
        garden("yes", action="retracted", memory=[{"state": "retracted", **peanuts}],
               memory_only=True),
    ]}  # fmt: skip
    cfg = RunConfig([load_suite(make_suite(suite(case)))], ["local"], concurrency=1)
    (row,) = run_eval(EvalOptions(cfg, progress=False)).rows
    assert row["status"] == "pass", row["why"] or row["error"]
    assert row["provider"] == "local" and row["cached"] is False


def test_prompt_checks_read_what_the_responder_was_sent():
    case = ConversationCase.model_validate(
        {
            "id": "c",
            "turns": [
                {"message": "hi", "expect": {"prompt": {"contains": ["van"], "excludes": ["sofa"]}}}
            ],
        }
    )
    sent = {"turn": 1, "message": "hi", "memory": [], "prompt": "…the VAN is at the garage…"}
    assert CONVERSATION(case.expect, {"turns": [sent]}).passed
    wrong = {**sent, "prompt": "teal sofa"}
    assert CONVERSATION(case.expect, {"turns": [wrong]}).why.startswith(
        "turn 1: prompt 'teal sofa' lacks 'van'"
    )
    unrecorded = {k: v for k, v in sent.items() if k != "prompt"}
    assert CONVERSATION(case.expect, {"turns": [unrecorded]}).why == "turn 1: no prompt"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"working_memory": {"written": "2 days"}}, "exactly one of `summary` or `document`"),
        ({"working_memory": {"summary": "x", "document": "y"}}, "exactly one of"),
        ({"working_memory": {"summary": "x", "ttl_days": 0}}, "greater than or equal to 1"),
        ({"turns": [{"message": "hi", "after": "soon"}]}, "is not like '59 minutes'"),
    ],
)
def test_working_memory_seeds_and_gaps_are_checked(extra, message):
    with pytest.raises(ValueError, match=message):
        ConversationCase.model_validate({"id": "c", "turns": [{"message": "hi"}], **extra})
