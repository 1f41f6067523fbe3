"""The answer schema by classifier version: v1–v3 and v6 one intent, v4 and v5 a list of acts;
a model's list of acts is read act by act, with parameters beside each act's intent."""

from __future__ import annotations

from pipeline.domain import PromptRef
from pipeline.providers.intent_schema import answer_schema, reads_acts, schema_for
from pipeline.providers.local_llm.classifier import response_format
from pipeline.providers.roles import read_answer
from pipeline.reading import Relation


def _refs(version: str) -> tuple[PromptRef, ...]:
    return (PromptRef(family="classifier", version=version, sha256="0" * 64),)


def test_versions_before_four_keep_the_one_intent_schema_and_four_asks_for_acts() -> None:
    assert schema_for(_refs("v3")) == answer_schema()
    assert not reads_acts(_refs("v1")) and reads_acts(_refs("v4")) and reads_acts(_refs("v12"))
    # v6 is v3's text (with a new intent's spec examples) and asks for v3's answer
    assert not reads_acts(_refs("v6")) and reads_acts(_refs("v5"))
    acts = schema_for(_refs("v4"))
    assert acts["required"] == ["acts"]
    item = acts["properties"]["acts"]["items"]
    assert {"intent", "personal_fact", "relation", "answers", "status", "question"} <= set(
        item["properties"]
    )
    grammar = response_format(acts=True)["json_schema"]["schema"]
    assert grammar["properties"]["acts"]["items"]["anyOf"]


def test_a_models_acts_are_read_with_their_parameters_beside_the_intent() -> None:
    raw = {
        "acts": [
            {
                "intent": "remember_about_me",
                "relation": "correct",
                "answers": "#2",
                "corrected": "Your commute is 20 minutes",
            },
            {"intent": "general_conversation", "question": True},
            {"intent": "general_conversation", "status": {"topic": "car", "text": "At the shop"}},
        ]
    }
    got = read_answer("", raw, "the answer", provider="p", model="m", prompt_refs=_refs("v4"))
    assert got.error is None
    first, second, third = got.acts
    assert first.reading is not None and first.reading.relation is Relation.CORRECT
    assert first.reading.answered_number() == 2
    assert second.question and not first.question
    assert third.status is not None and third.status.topic == "car"
    assert got.intent == "remember_about_me" and got.reading == first.reading


def test_an_act_list_that_is_not_a_list_degrades_with_the_reason() -> None:
    got = read_answer("", {"acts": "yes"}, "the answer", provider="p")
    assert got.intent == "general_conversation"
    assert got.error is not None and "lists no acts" in got.error
