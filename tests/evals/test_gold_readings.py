"""Gold readings in suites: the schema and its refusals, the status expectation, and
`converse eval --reading gold` replaying every case with its gold readings through the core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import SuiteError, load_suite
from evals.dataset.conversation import MessageTurn
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.gold import GOLD, GoldClassifier
from evals.runner.run_meta import config_from_meta
from evals.scorers.conversation import status_checks
from pipeline.providers import ClassifyRequest
from pipeline.reading import Act, Relation

FACT = "Your daughter Noor is 9 and just started piano lessons"
NOOR = {
    "id": "noor",
    "turns": [
        {
            "message": "my daughter Noor is 9 and just started piano lessons",
            "reading": [
                {"intent": "remember_about_me", "params": {"personal_fact": FACT},
                 "profile_field": "none"}
            ],
            "expect": {"action": "held", "memory": [{"state": "held",
                                                     "text": {"contains": ["noor", "9"]}}]},
        },
        {
            "message": "sorry, she's 10",
            "reading": [
                {"intent": "remember_about_me", "relation": "correct",
                 "corrected": "Your daughter Noor is 10 and just started piano lessons"}
            ],
            "expect": {"action": "refined"},
        },
        {
            "message": "yes",
            "reading": [{"intent": "remember_about_me", "relation": "confirm", "answers": 1}],
            "expect": {"action": "committed", "memory_only": True,
                       "memory": [{"state": "committed", "text": {"contains": ["10"],
                                                                  "excludes": ["9"]}}]},
        },
    ],
}  # fmt: skip


def conversations(*cases: dict[str, Any]) -> dict[str, Any]:
    return {"name": "talks", "target": "conversation", "cases": list(cases)}


def refused(make_suite: Any, data: dict[str, Any]) -> str:
    with pytest.raises(SuiteError) as caught:
        load_suite(make_suite(data))
    return str(caught.value.message)


def test_a_gold_reading_loads_as_the_cores_acts(make_suite):
    suite = load_suite(make_suite(conversations(NOOR)))
    turns = [t for t in suite.cases[0].turns if isinstance(t, MessageTurn)]
    assert turns[0].reading is not None and turns[2].reading is not None
    first = turns[0].reading[0].to_act()
    assert first.intent == "remember_about_me" and first.params == {"personal_fact": FACT}
    assert first.reading is None and first.profile_field is not None
    confirm = turns[2].reading[0].to_act()
    assert confirm.reading is not None and confirm.reading.relation is Relation.CONFIRM
    assert confirm.reading.answers == "#1"


def _turn(reading: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"message": "hi", "reading": reading, **extra}


@pytest.mark.parametrize(
    ("case", "field", "message"),
    [
        ({"turns": [_turn([{"intent": "remember_it"}])]}, "turns.0.message.reading.0.intent",
         "Value error, unknown intent 'remember_it'; intents: general_conversation"),
        ({"turns": [_turn([{"intent": "remember_about_me", "params": {"fact": "x"}}])]},
         "turns.0.message.reading.0.params.fact",
         "remember_about_me takes no parameter 'fact' (it takes: personal_fact)"),
        ({"turns": [_turn([{"intent": "add_knowledge"}], project="Garden")]},
         "turns.0.message.reading.0.params",
         "add_knowledge needs `knowledge` unless it answers something pending (then set "
         "`relation`)"),
        ({"turns": [_turn([{"intent": "general_conversation", "relation": "maybe"}])]},
         "turns.0.message.reading.0.relation",
         "Input should be 'confirm', 'reject', 'correct', 'choose' or 'unrelated'"),
        ({"turns": [_turn([{"intent": "general_conversation", "mood": "calm"}])]},
         "turns.0.message.reading.0.mood", "Extra inputs are not permitted"),
        ({"turns": [_turn([])]}, "turns.0.message.reading", "List should have at least 1 item"),
        ({"turns": [_turn([{"intent": "remember_about_me", "relation": "confirm",
                            "answers": "x#1"}])]},
         "turns.0.message.reading.0.answers",
         "Value error, answers 'x#1' names no item: use 3, '#3' or 'notes#2'"),
        ({"memories": [{"content": "You like tea", "age": "1 days"}],
          "turns": [_turn([{"intent": "remember_about_me", "relation": "confirm",
                            "answers": 2}])]},
         "turns.0.message.reading.0.answers",
         "answers #2 names no personal fact that can exist: the case can hold at most 1 by "
         "this turn (its `memories:` and the facts earlier acts could hold); name one of "
         "those, or seed it in `memories:`"),
        ({"turns": [_turn([{"intent": "add_knowledge", "relation": "confirm",
                            "answers": "notes#1"}])]},
         "turns.0.message.reading.0.answers",
         "answers notes#1 names a project note, but the turn has no `project`"),
        ({"turns": [_turn([{"intent": "add_knowledge", "relation": "confirm",
                            "answers": "notes#1"}], project="Garden")]},
         "turns.0.message.reading.0.answers",
         "answers notes#1 names no note that can exist: project 'Garden' can hold at most 0 "
         "note(s) by this turn (seeded `notes:` and the acts before)"),
        ({"turns": [_turn([{"intent": "remember_about_me", "corrected": "You like tea"}])]},
         "turns.0.message.reading.0.corrected",
         "`corrected` belongs to an act that answers something pending; set `relation` "
         "(confirm, reject, correct, choose, unrelated)"),
        ({"turns": [_turn([{"intent": "general_conversation", "profile_field": "city"}])]},
         "turns.0.message.reading.0.profile_field",
         "profile_field belongs to remember_about_me acts, not general_conversation"),
    ],
)  # fmt: skip
def test_bad_gold_readings_are_refused_naming_the_suite_case_and_field(
    make_suite, case, field, message
):
    path = make_suite(conversations({"id": "bad-one", **case}))
    text = refused(make_suite, conversations({"id": "bad-one", **case}))
    assert f"{path}: case 'bad-one': field {field}: {message}" in text


def test_an_item_is_answerable_once_an_earlier_act_could_have_held_it(make_suite):
    later = {"id": "late", "turns": [
        _turn([{"intent": "remember_about_me", "params": {"personal_fact": "You like tea"}}]),
        _turn([{"intent": "general_conversation", "question": True}]),
        _turn([{"intent": "remember_about_me", "relation": "confirm", "answers": 1}]),
        _turn([{"intent": "forget_about_me", "relation": "reject", "answers": 2}]),
        _turn([{"intent": "remember_about_me", "relation": "confirm", "answers": 3}]),
    ]}  # fmt: skip
    text = refused(make_suite, conversations(later))
    # #1: the first turn could have held it; #2: the confirm (of a cross-promotion, say)
    assert "turns.2.message" not in text and "turns.3.message" not in text
    # a question and a rejection hold nothing, so #3 cannot exist
    assert "field turns.4.message.reading.0.answers: answers #3 names no personal fact" in text


def test_a_classify_case_answers_only_items_its_history_could_hold(make_suite):
    def case(answers: int, companion: str) -> dict[str, Any]:
        return {
            "id": f"c{answers}",
            "history": [{"operator": "I like tea"},
                        {"companion": companion, "intent": "remember_about_me"}],
            "message": "yes",
            "expect": {"intent": "remember_about_me"},
            "reading": [{"intent": "remember_about_me", "relation": "confirm",
                         "answers": answers}],
        }  # fmt: skip

    ok = {"name": "cl", "target": "classify", "cases": [case(1, "Keep that?"), case(4, "#4?")]}
    assert len(load_suite(make_suite(ok)).cases) == 2
    bad = {"name": "cl", "target": "classify", "cases": [case(2, "Keep that?")]}
    assert "case 'c2': field reading.0.answers: answers #2 names no personal fact" in refused(
        make_suite, bad
    )


def test_status_expectations_compare_topics_as_the_store_keys_them():
    notes = [{"topic": "car", "text": "The car is at the garage until Friday"}]
    expect = MessageTurn.model_validate(
        {"message": "x", "expect": {"status": [
            {"topic": "My car", "text": {"contains": ["friday"], "excludes": ["monday"]}},
            {"topic": "boiler"},
        ]}}
    ).expect  # fmt: skip
    assert expect is not None and expect.status is not None
    found, missing = status_checks(3, expect.status, notes)
    assert found.passed and found.got == "car: The car is at the garage until Friday"
    assert not missing.passed and missing.why == (
        "turn 3: no current status note on 'boiler' (topics: car)"
    )
    (lacking,) = status_checks(3, expect.status[:1], [{"topic": "car", "text": "fixed"}])
    assert not lacking.passed and "lacks ['friday']" in lacking.why


def test_the_gold_classifier_answers_in_order_and_refuses_messages_out_of_step():
    acts = (Act(intent="remember_about_me", params={"personal_fact": "You like tea"}),
            Act(intent="general_conversation", question=True))  # fmt: skip
    gold = GoldClassifier([("I like tea, what's for dinner?", acts)])
    other = GoldClassifier([("hello", acts)])
    first = gold.classify(ClassifyRequest(message="i like tea,  what's for dinner?"))
    assert first.error is None and first.provider == GOLD and first.model == "suite"
    assert first.intent == "remember_about_me" and first.all_acts() == acts
    assert gold.classify(ClassifyRequest(message="more")).error == (
        "no gold reading for message 2 ('more')"
    )
    assert other.classify(ClassifyRequest(message="bye")).error == (
        "gold reading 1 is for 'hello', not 'bye'"
    )


UNREAD = {"id": "unread", "turns": [{"message": "hello there"}, NOOR["turns"][0]]}


def gold_run(make_suite: Any, *suites: dict[str, Any]) -> Any:
    config = RunConfig(
        [load_suite(make_suite(s)) for s in suites], [GOLD], concurrency=1, reading=GOLD
    )
    return run_eval(EvalOptions(config, progress=False))


def test_a_gold_run_replays_the_readings_and_leaves_out_cases_it_cannot(make_suite):
    classify = {"name": "cl", "target": "classify", "cases": [
        {"id": "tea", "message": "I like tea", "expect": {"intent": "remember_about_me",
         "params": {"personal_fact": {"contains": ["tea"]}}},
         "reading": [{"intent": "remember_about_me", "params": {"personal_fact": "You like tea"}}]},
        {"id": "no-gold", "message": "hello", "expect": {"intent": "general_conversation"}},
    ]}  # fmt: skip
    out = gold_run(make_suite, conversations(NOOR, UNREAD), classify)
    rows = {r["case_id"]: r for r in out.rows}
    assert set(rows) == {"noor", "tea"}
    assert rows["noor"]["status"] == "pass", rows["noor"]["why"]
    assert rows["tea"]["status"] == "pass", rows["tea"]["why"]
    assert all(r["reading"] == GOLD and r["provider"] == GOLD for r in rows.values())
    assert "reading_scores" not in rows["noor"]
    assert list(out.not_runnable) == [
        {"suite": "talks", "case_id": "unread", "reason": "turn 1 has no gold reading"},
        {"suite": "cl", "case_id": "no-gold", "reason": "the message has no gold reading"},
    ]
    meta = json.loads((out.run.path / "run.json").read_text())
    assert meta["config"]["reading"] == GOLD and meta["not_runnable"] == list(out.not_runnable)
    assert config_from_meta(meta).reading == GOLD  # --resume replays gold readings again
    again = run_eval(EvalOptions(resume=out.run.run_id, progress=False))
    assert (
        again.ran == 0 and again.skipped == 2 and list(again.not_runnable) == meta["not_runnable"]
    )
    assert {g.n for g in out.groups} == {1} and {g.reading_mode for g in out.groups} == {GOLD}


def test_a_gold_run_of_a_failing_case_blames_the_decision(make_suite):
    wrong = json.loads(json.dumps(NOOR))
    wrong["turns"][1]["reading"] = [{"intent": "remember_about_me", "relation": "confirm"}]
    out = gold_run(make_suite, conversations(wrong))
    (row,) = out.rows
    assert row["status"] == "fail" and row["failed_by"] == "decision"
    (group,) = out.groups
    assert group.failed_by == {"reading": 0, "decision": 1, "unknown": 0}


def test_the_cli_runs_gold_readings_and_refuses_options_no_reader_needs(make_suite, tmp_path):
    path = make_suite(conversations(NOOR, UNREAD))
    runner = CliRunner()
    done = runner.invoke(app, ["eval", "--suite", str(path), "--reading", "gold", "--json",
                               "--no-progress", "--no-report"])  # fmt: skip
    assert done.exit_code == 0, done.output
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    assert payload["reading"] == GOLD
    assert payload["not_runnable"] == {
        "n": 1,
        "cases": [{"suite": "talks", "case_id": "unread", "reason": "turn 1 has no gold reading"}],
    }
    assert payload["results"][0]["reading_mode"] == GOLD
    assert "not runnable under --reading gold: 1 case(s)" in done.stderr
    refused_ = runner.invoke(app, ["eval", "--suite", str(path), "--reading", "gold",
                                   "--provider", "local"])  # fmt: skip
    assert refused_.exit_code == 2
    assert "--reading gold takes no --provider: no model reads" in refused_.output
    unknown = runner.invoke(app, ["eval", "--suite", str(path), "--reading", "best"])
    assert unknown.exit_code == 2
    assert "--reading 'best' is not one of provider, gold" in unknown.output
    assert (
        not (Path(tmp_path) / "reports" / "runs").exists()
        or len(list((Path(tmp_path) / "reports" / "runs").iterdir())) == 1
    )  # the refused runs left no folder


COMPOUND = {
    "id": "compound",
    "turns": [
        {"message": "I'm learning Welsh",
         "reading": [{"intent": "remember_about_me",
                      "params": {"personal_fact": "You're learning Welsh"}}],
         "expect": {"action": "held"}},
        {"message": "yes that's right, and my laptop's in for repair till friday",
         "reading": [
             {"intent": "remember_about_me", "relation": "confirm"},
             {"intent": "general_conversation",
              "status": {"topic": "my laptop", "text": "Your laptop is in for repair until Friday",
                         "until": "friday"}}],
         "expect": {"memory": [{"state": "committed", "text": {"contains": ["welsh"]}}],
                    "status": [{"topic": "laptop", "text": {"contains": ["friday"]}}]}},
    ],
}  # fmt: skip


def test_a_gold_run_decides_every_act_of_a_message_and_notes_its_status(make_suite):
    out = gold_run(make_suite, conversations(COMPOUND))
    (row,) = out.rows
    assert row["status"] == "pass", row["why"]
    second = row["got"]["turns"][1]
    assert [a["intent"] for a in second["acts"]] == ["remember_about_me", "general_conversation"]
    assert second["status"] == [
        {"topic": "laptop", "text": "Your laptop is in for repair until Friday"}
    ]
