"""The local provider's typed reading, one test per class of reply, in phrasing written apart
from every suite: what the core is told, never what it does with it (tests/pipeline has that)."""

from __future__ import annotations

import pytest

from pipeline.domain import HistoryTurn, Role
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local import LocalClassifier
from pipeline.reading import ClassifiedIntent, Relation


@pytest.fixture(scope="module")
def classifier() -> LocalClassifier:
    return LocalClassifier()


def _offer(fact: str, number: int = 1) -> tuple[HistoryTurn, ...]:
    return (
        HistoryTurn(role=Role.OPERATOR, content=fact),
        HistoryTurn(
            role=Role.COMPANION,
            content=f"I'll remember that {fact[0].lower()}{fact[1:]} — is that right?",
            intent="remember_about_me",
            operation_data={
                "action": "held",
                "personal_fact": fact,
                "assertion_display_number": number,
            },
        ),
    )


def _read(
    classifier: LocalClassifier, message: str, history: tuple[HistoryTurn, ...] = ()
) -> ClassifiedIntent:
    return classifier.classify(ClassifyRequest(message=message, history=history))


@pytest.mark.parametrize(
    "reply",
    [
        "no idea what to get my nephew for his birthday, any thoughts?",
        "nah what's the weather doing this weekend?",
        "actually, can you suggest a film for tonight?",
    ],
)
def test_a_question_after_an_offer_is_unrelated(classifier, reply) -> None:
    read = _read(classifier, reply, _offer("Your cousin Ravi lives in Cork"))
    assert read.reading is not None and read.reading.relation is Relation.UNRELATED


@pytest.mark.parametrize(
    ("fact", "reply", "value", "old"),
    [
        ("Your appointment is on the 3rd of May", "it's the 4th not the 3rd", "4th", "3rd"),
        ("You leave work at 5 on Fridays", "half 5 not 5", "half 5", None),
        ("You swim three mornings a week", "no, four mornings now tbh", "four", "three"),
    ],
)
def test_a_correction_gives_the_whole_corrected_fact(classifier, fact, reply, value, old) -> None:
    read = _read(classifier, reply, _offer(fact))
    assert read.reading is not None and read.reading.relation is Relation.CORRECT
    assert value in read.reading.corrected.lower()
    assert old is None or old not in read.reading.corrected
    assert "tbh" not in read.reading.corrected and "not" not in read.reading.corrected.split()


@pytest.mark.parametrize("reply", ["yws", "thaf's right", "yeah corrdct", "yes 👍", "yep lol"])
def test_a_slipped_or_padded_yes_still_confirms(classifier, reply) -> None:
    read = _read(classifier, reply, _offer("Your flat is on the fourth floor"))
    assert read.reading is not None and read.reading.relation is Relation.CONFIRM


def test_yes_to_both_names_every_offer_still_held(classifier) -> None:
    history = (*_offer("You're allergic to pollen", 1), *_offer("Your sister is called Noor", 2))
    read = _read(classifier, "yes, both of those are right", history)
    assert read.reading is not None and read.reading.relation is Relation.CONFIRM
    assert set(read.reading.chosen) == {1, 2}


@pytest.mark.parametrize(
    "message", ["do I have a dentist appointment soon?", "when's my mum's birthday?"]
)
def test_a_question_about_oneself_is_flagged_a_question(classifier, message) -> None:
    assert _read(classifier, message).question is True


@pytest.mark.parametrize(
    "message",
    ["could you drop the bit about my old flat", "please forget that I'm learning Greek"],
)
def test_a_forget_request_framed_as_a_clause_is_a_forget(classifier, message) -> None:
    read = _read(classifier, message)
    assert read.intent == "forget_about_me"
    assert "forget" not in read.params["forget_description"].lower()


def test_a_restore_request_is_flagged(classifier) -> None:
    assert _read(classifier, "could you put #3 back please").restore is True
    assert _read(classifier, "I put the kettle on").restore is False


def test_nothing_pending_gives_no_reading(classifier) -> None:
    assert _read(classifier, "I've started learning the cello").reading is None


def test_a_correction_after_a_question_in_between_names_the_offer_still_held(classifier) -> None:
    history = (
        *_offer("You work nights at the hospital", 4),
        HistoryTurn(role=Role.OPERATOR, content="any ideas for dinner?"),
        HistoryTurn(
            role=Role.COMPANION,
            content="How about a stir-fry?",
            intent="general_conversation",
            operation_data={"action": "none"},
        ),
    )
    read = _read(classifier, "actually it's the day shift not nights", history)
    assert read.reading is not None and read.reading.relation is Relation.CORRECT
    assert read.reading.chosen == (4,) and "day shift" in read.reading.corrected
    assert "actually" not in read.reading.corrected.lower()
    # without a correction cue the same history answers nothing
    assert _read(classifier, "I love stir-fries", history).reading is None
