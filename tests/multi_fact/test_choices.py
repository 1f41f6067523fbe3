"""The local provider's reading of a reply to several facts offered at once (English)."""

from __future__ import annotations

import pytest

from pipeline.english.choices import chosen_indexes, pick_one

OFFERED = [
    "Your sister Priya lives in Leeds",
    "You're allergic to cats",
    "You run every Saturday morning",
]


@pytest.mark.parametrize(
    ("reply", "kept"),
    [
        ("yes, all of them", {0, 1, 2}),
        ("yep", {0, 1, 2}),
        ("keep them, but not the cats one", {0, 2}),
        ("only the second", {1}),
        ("the first and third", {0, 2}),
        ("all but #2", {0, 2}),
        ("no, none of them", set()),
        ("nope", set()),
    ],
)
def test_a_reply_keeps_what_it_names(reply: str, kept: set[int]) -> None:
    assert chosen_indexes(reply, OFFERED) == kept


@pytest.mark.parametrize(
    "reply", ["what's a good warm-up before running?", "my brother Sam lives in Bristol now"]
)
def test_a_question_or_a_new_statement_answers_nothing(reply: str) -> None:
    assert chosen_indexes(reply, OFFERED) is None


def test_one_candidate_is_picked_by_number_position_or_its_own_words() -> None:
    items = [(4, "Back squats are 5x5 at 80 kg"), (7, "Front squats are 3x8 at 50 kg")]
    assert pick_one("#7", items) == 7
    assert pick_one("the second one", items) == 7
    assert pick_one("the front squat one", items) == 7
    assert pick_one("the squat one", items) is None  # both have it: no pick
