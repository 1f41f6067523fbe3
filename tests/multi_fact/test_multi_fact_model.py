"""Extraction through the structured-generation protocol: a strict answer, one retry, a
recorded error and the labelled splitter fallback; every candidate through the writing
constraints."""

from __future__ import annotations

import json

from pipeline.conversations.stages import FALLBACK, RETRY_NOTE
from pipeline.english import ENGLISH
from pipeline.extraction import extract_facts
from pipeline.prompting import default_library
from tests.conversations.helpers import FakeModel

MESSAGE = "A bit about me: I'm allergic to cats, and my sister Priya lives in Leeds."


def _answer(*facts: tuple[str, int]) -> str:
    return json.dumps(
        {"facts": [{"text": t, "category": "general", "importance": i} for t, i in facts]}
    )


def _extract(model: FakeModel):
    return extract_facts(
        MESSAGE, operator_name="Ana", library=default_library(), generator=model, lexicon=ENGLISH
    )


def test_a_valid_answer_is_used_most_important_first() -> None:
    model = FakeModel(
        {
            "fact_extraction": [
                _answer(("Your sister Priya lives in Leeds", 2), ("You're allergic to cats", 5))
            ]
        }
    )
    got = _extract(model)
    assert got.facts == ("You're allergic to cats", "Your sister Priya lives in Leeds")
    assert got.method == "fake scripted" and got.record is not None
    assert got.record.attempts == 1 and got.record.error is None
    sent = model.sent[0]
    assert sent.schema_name == "fact_extraction"
    assert "untrusted" in sent.user and "allergic to cats" in sent.user  # fenced as data
    assert sent.prompt_refs[0].family == "fact_extraction"


def test_a_malformed_answer_is_retried_once_with_the_problem() -> None:
    model = FakeModel(
        {"fact_extraction": ['{"facts": []}', _answer(("You're allergic to cats", 4))]}
    )
    got = _extract(model)
    assert got.facts == ("You're allergic to cats",)
    assert got.record is not None and got.record.attempts == 2
    assert RETRY_NOTE in model.sent[1].user


def test_two_unusable_answers_record_the_error_and_the_splitter_answers() -> None:
    model = FakeModel({"fact_extraction": ["not json at all"]})
    got = _extract(model)
    assert got.method == f"sentence splitter ({FALLBACK})"
    assert got.record is not None and got.record.error is not None
    assert "fake" in got.record.error and FALLBACK in got.record.error
    assert got.facts == ("You're allergic to cats", "Your sister Priya lives in Leeds")


def test_unknown_fields_and_out_of_range_importance_are_refused() -> None:
    bad = json.dumps({"facts": [{"text": "You're allergic to cats", "importance": 9}]})
    extra = json.dumps({"facts": [{"text": "You're allergic to cats", "why": "x"}]})
    got = _extract(FakeModel({"fact_extraction": [bad, extra]}))
    assert got.record is not None and got.record.attempts == 2
    assert got.method.startswith("sentence splitter")


def test_candidates_breaking_the_writing_rules_are_trimmed_or_rejected_and_counted() -> None:
    long = "You're allergic to cats. " + "You sneeze near them all day and night. " * 8
    model = FakeModel(
        {
            "fact_extraction": [
                _answer(
                    ("I'm allergic to cats", 5),  # the person's own first person: rejected
                    (long, 4),  # trimmed to two sentences
                    ("Your sister Priya lives in Leeds", 3),
                )
            ]
        }
    )
    got = _extract(model)
    assert got.first_pass_failures == 2 and got.rejected == 1
    assert got.facts[0].startswith("You're allergic to cats. You sneeze")
    assert len(got.facts[0]) <= 280
    assert got.facts[1] == "Your sister Priya lives in Leeds"
    assert not any(f.startswith("I'm") for f in got.facts)


def test_when_every_model_fact_breaks_the_rules_the_splitter_answers_and_it_is_recorded() -> None:
    # What SmolLM2-135M writes: the person's first person, and a fact the message never said.
    model = FakeModel(
        {"fact_extraction": [_answer(("I'm a scientist", 3), ("I'm allergic to cats", 5))]}
    )
    got = _extract(model)
    assert got.method == f"sentence splitter ({FALLBACK})"
    assert got.facts == ("You're allergic to cats", "Your sister Priya lives in Leeds")
    assert got.record is not None and got.record.error is not None
    assert "writing constraints" in got.record.error
    # the model's two items stay counted as first-pass failures
    assert got.rejected >= 2 and got.first_pass_failures >= 2
