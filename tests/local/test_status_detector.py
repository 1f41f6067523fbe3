"""The template responder's status detector: general sentence shapes, and what it leaves out."""

from __future__ import annotations

import pytest

from pipeline.english import ENGLISH
from pipeline.english.status import detect_status
from pipeline.memory.status import topic_key


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("the van is at the garage until Tuesday", "van"),
        ("My grandmother is in hospital for a few days", "grandmother"),
        ("our fence is being rebuilt", "fence"),
        ("The loan application is still pending", "loan application"),
        ("the delivery won't come until next week", "delivery"),
        ("Her train arrives at 9 tomorrow", "train"),
        ("still waiting on the council about the permit", "council"),
        ("I'm away until the 3rd", "you"),
        ("my tooth got cracked, dentist on Monday", "tooth"),
    ],
)
def test_ongoing_states_are_noted_under_their_thing(message: str, topic: str) -> None:
    (report,) = detect_status(message)
    assert topic_key(report.topic, ENGLISH.topic_openers) == topic


@pytest.mark.parametrize(
    "message",
    [
        "Is the van at the garage?",
        "if the van is at the garage I'll walk",
        "The van is blue",
        "I love long walks",
        "My brother is a teacher",
        "I'm at home",  # the person, with no time: not an ongoing state
        "No word from the bank yet",  # a known miss: no subject in a known state
    ],
)
def test_questions_conditions_descriptions_and_unknown_shapes_are_not(message: str) -> None:
    assert detect_status(message) == []


@pytest.mark.parametrize(
    ("message", "topics"),
    [
        ("dishwasher's broken again, engineer due thursday", ["dishwasher", "engineer"]),
        ("garage door is stuck and locksmith comes back tomorrow", ["garage door", "locksmith"]),
        ("van's at the garage till tuesday", ["van"]),
    ],
)
def test_a_thing_typed_without_its_article_is_noted_at_the_start_of_a_clause(
    message: str, topics: list[str]
) -> None:
    assert [topic_key(r.topic, ENGLISH.topic_openers) for r in detect_status(message)] == topics


@pytest.mark.parametrize(
    "message", ["it's broken again", "there's a leak, so annoying", "Tove is a carpenter"]
)
def test_a_pronoun_or_a_description_without_an_article_is_not_a_report(message: str) -> None:
    assert detect_status(message) == []


def test_the_note_is_in_the_second_person_and_one_a_topic() -> None:
    reports = detect_status("My car is in the shop. My car is back tomorrow.")
    assert [(topic_key(r.topic, ENGLISH.topic_openers), r.text) for r in reports] == [
        ("car", "Your car is back tomorrow")
    ]


@pytest.mark.parametrize(
    ("message", "topics"),
    [
        ("dryer leaking again, electrician due friday", ["dryer", "electrician"]),
        ("boiler playing up again", ["boiler"]),
        ("fridge making a weird noise since tuesday", ["fridge"]),
        ("bathroom extractor fan not working", ["bathroom extractor fan"]),
        ("broadband down again", ["broadband"]),
        ("bike in for a service till saturday", ["bike"]),
        ("heating broken since sunday", ["heating"]),
    ],
)
def test_a_thing_and_its_fault_typed_without_a_verb_is_noted(
    message: str, topics: list[str]
) -> None:
    assert [topic_key(r.topic, ENGLISH.topic_openers) for r in detect_status(message)] == topics


@pytest.mark.parametrize(
    "message",
    [
        "pretty stuck on this",  # a mood of the person's, the subject left out
        "loving this weather",
        "feeling broken today",
        "totally broken lol",
        "sick of the rain",
        "away till sunday",  # the person's own state: needs "I'm" and a time
        "kids down for a nap",  # "down" is a fault only as "down again / still / since"
        "tea in hand",  # a place without a time is no status
        "not working today",  # no thing named
        "if the boiler playing up again we'll get a new one",
        "Priya cancelled on me again",  # a past tense, the subject acting: an event
        "the scanner jammed twice",
        "I laughed so hard at the cat today",  # "hard at the cat today" is no thing's place
    ],
)
def test_a_mood_or_a_state_of_the_person_without_a_verb_is_not_a_status(message: str) -> None:
    assert detect_status(message) == []
