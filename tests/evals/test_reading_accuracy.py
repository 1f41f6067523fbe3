"""A provider's reading scored against gold readings: spans by containment, acts aligned in
order, per-field figures with Wilson intervals, whether the reading or the decision failed,
the report and why moved cases moved in a comparison."""

from __future__ import annotations

import json
from typing import Any

import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.scorers.reading import content_words, message_verdicts, spans_agree
from evals.stats import wilson
from pipeline.domain import ProfileField
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.reading import Act, Reading, Relation, StatusReport
from tests.evals.conftest import stand_in


@pytest.mark.parametrize(
    ("gold", "got", "agree"),
    [
        ("You're allergic to shrimp", "I'm allergic to SHRIMP", True),
        ("You're allergic to shrimp", "allergic to shrimp and crab", True),  # got holds gold
        ("Your sister Ana lives in Leeds", "sister lives in Leeds", True),  # gold holds got
        ("You're allergic to shrimp", "You're allergic to crab", False),
        ("You cycle 15 km each way", "You cycle 12 km each way", False),
        ("my birthday", "the birthday thing", True),  # stop words name nothing
        ("Your birthday is March 15th", "Your birthday's March 15th", True),  # a clitic goes
        ("You eat beef", "You don't eat beef", True),  # contained: "don't" names nothing
        ("You eat beef at home", "You never eat beef", False),
        ("that", "it", True),  # no content word on either side
        ("that", "my birthday", False),  # nothing agrees only with nothing
    ],
)
def test_spans_agree_by_containment_of_content_words(gold, got, agree):
    assert spans_agree(gold, got) is agree
    assert spans_agree(got, gold) is agree  # either way round


def test_content_words_drop_pronouns_and_words_that_name_nothing():
    assert content_words("You're allergic to all shellfish, I'm told!") == {
        "allergic",
        "shellfish",
    }
    assert content_words("Your son's nut allergy doesn't worry him") == {
        "son", "nut", "allergy", "doesn't", "worry", "him"
    }  # fmt: skip


def act(intent: str, **fields: Any) -> Act:
    return Act(intent=intent, **fields)


FACT = act("remember_about_me", params={"personal_fact": "You've got a bad knee"},
           profile_field=ProfileField.NONE)  # fmt: skip
CONFIRM = act("remember_about_me", reading=Reading(relation=Relation.CONFIRM))


def test_one_act_right_and_nothing_else_set_scores_only_the_intent():
    verdicts, why = message_verdicts([CONFIRM], [CONFIRM])
    assert verdicts == {"intent": True, "relation": True} and why == []


def test_a_missing_act_counts_against_every_field_its_gold_partner_sets():
    verdicts, why = message_verdicts([CONFIRM, FACT], [CONFIRM])
    assert verdicts == {"intent": False, "relation": True, "profile_field": False,
                        "spans": False}  # fmt: skip
    assert why[0] == (
        "intent: ['remember_about_me'], gold ['remember_about_me', 'remember_about_me']"
    )


def test_an_extra_act_counts_against_the_intent_and_what_it_sets():
    extra = act("general_conversation", question=True)
    verdicts, _ = message_verdicts([FACT], [FACT, extra])
    assert verdicts["intent"] is False and verdicts["question"] is False
    assert verdicts["spans"] is True and verdicts["profile_field"] is True


def test_relations_items_and_status_topics_are_compared_as_the_core_reads_them():
    unrelated = act("general_conversation", reading=Reading(relation=Relation.UNRELATED))
    assert message_verdicts([unrelated], [act("general_conversation")])[0] == {"intent": True}
    late = act("remember_about_me", reading=Reading(relation=Relation.CONFIRM, answers="#2"))
    verdicts, why = message_verdicts([late], [CONFIRM])
    assert verdicts["answers"] is False and "answers: None, gold '#2'" in why
    car = act("general_conversation", status=StatusReport(topic="My car", text="at the shop"))
    same = act("general_conversation", status=StatusReport(topic="the car", text="in the shop"))
    assert message_verdicts([car], [same])[0]["status"] is True


def test_profile_field_and_spans_are_scored_only_where_the_gold_sets_them():
    repeated = act("remember_about_me", params={"personal_fact": "You like tea"},
                   reading=Reading(relation=Relation.CONFIRM),
                   profile_field=ProfileField.NONE)  # fmt: skip
    verdicts, _ = message_verdicts([CONFIRM], [repeated])
    assert "spans" not in verdicts and "profile_field" not in verdicts


TEA = "I like green tea"
SCRIPT = [
    ScriptEntry(TEA, "remember_about_me", {"personal_fact": "You like green tea"}),
    # the provider reads a confirmation as something unrelated: a reading mistake
    ScriptEntry("yes", "general_conversation", {}, after="remember_about_me"),
    ScriptEntry("what's the time?", "general_conversation", {}, question=True),
]
TEA_TURN = {
    "message": TEA,
    "reading": [{"intent": "remember_about_me", "params": {"personal_fact": "You like green tea"}}],
}
CASES = [
    {"id": "misread", "turns": [
        TEA_TURN,
        {"message": "yes", "reading": [{"intent": "remember_about_me", "relation": "confirm"}],
         "expect": {"action": "committed"}},
    ]},
    {"id": "decided", "turns": [
        TEA_TURN | {"expect": {"action": "committed"}},  # read right, decided otherwise
    ]},
    {"id": "unread", "turns": [
        {"message": "what's the time?"},  # no gold reading on the failing turn
        TEA_TURN | {"expect": {"action": "committed"}},
    ]},
    {"id": "passes", "turns": [TEA_TURN | {"expect": {"action": "held"}}]},
]  # fmt: skip


def provider_run(make_suite: Any, script: list[ScriptEntry] = SCRIPT) -> Any:
    data = {"name": "talks", "target": "conversation", "cases": CASES}
    config = RunConfig([load_suite(make_suite(data))], ["scripted"], concurrency=1)
    return run_eval(
        EvalOptions(config, progress=False, registry=stand_in(ScriptedProvider(list(script))))
    )


def test_rows_carry_reading_verdicts_and_say_what_each_failure_failed_on(make_suite):
    out = provider_run(make_suite)
    rows = {r["case_id"]: r for r in out.rows}
    assert rows["misread"]["reading_scores"] == [
        {"turn": 1, "fields": {"intent": True, "spans": True}},
        {"turn": 2, "fields": {"intent": False, "relation": False},
         "why": ["intent: ['general_conversation'], gold ['remember_about_me']",
                 "relation: None, gold 'confirm'"]},
    ]  # fmt: skip
    assert rows["misread"]["failed_by"] == "reading"
    assert rows["decided"]["failed_by"] == "decision"
    assert rows["unread"]["failed_by"] == "unknown"
    assert rows["passes"]["status"] == "pass" and "failed_by" not in rows["passes"]
    (group,) = out.groups
    assert group.failed_by == {"reading": 1, "decision": 1, "unknown": 1}
    assert group.reading is not None
    # intent: 5 messages scored (4 tea turns + the misread yes), 4 right
    lo, hi = wilson(4, 5)
    assert group.reading["intent"] == {"n": 5, "correct": 4, "accuracy": 0.8,
                                       "ci95": [round(lo, 4), round(hi, 4)]}  # fmt: skip
    assert group.reading["restore"] == {"n": 0, "correct": 0, "accuracy": None,
                                        "ci95": [0.0, 1.0]}  # fmt: skip
    assert group.as_json()["reading"]["relation"]["correct"] == 0


def test_the_report_shows_reading_accuracy_and_what_each_failure_failed_on(make_suite):
    out = provider_run(make_suite)
    built = build_report(out.run.run_id)
    text = built.markdown.read_text(encoding="utf-8")
    assert "## Reading" in text and "Reading accuracy per field" in text
    assert "Failed cases by cause" in text
    assert "Failed on: reading (turn 2: intent: ['general_conversation']" in text
    assert "Failed on: decision." in text
    assert "Reading: provider (each provider's own)." in text
    # each failed conversation's transcript says how each turn was read
    assert "Reading (against gold)" in text and "✗ relation: None, gold 'confirm'" in text
    assert "| no gold reading |" in text  # the unread case's first turn


def test_rows_without_gold_readings_carry_no_reading_fields(make_suite):
    data = {"name": "plain", "target": "conversation",
            "cases": [{"id": "p", "turns": [{"message": TEA}]}]}  # fmt: skip
    config = RunConfig([load_suite(make_suite(data))], ["scripted"], concurrency=1)
    out = run_eval(
        EvalOptions(config, progress=False, registry=stand_in(ScriptedProvider(list(SCRIPT))))
    )
    (row,) = out.rows
    assert "reading_scores" not in row and "failed_by" not in row and "reading" not in row
    assert row["got"]["turns"][0]["acts"] == [
        {"intent": "remember_about_me", "params": {"personal_fact": "You like green tea"}}
    ]
    (group,) = out.groups
    assert group.reading is None and group.failed_by is None
    assert "reading" not in group.as_json()
    assert json.loads((out.run.path / "run.json").read_text())["config"]["reading"] == "provider"
