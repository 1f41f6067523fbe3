"""Refinements carry the new value and drop the old one."""

from __future__ import annotations

import pytest

from pipeline.english.correction import correction_body
from pipeline.english.refine import refine_fact


@pytest.mark.parametrize(
    ("held", "reply", "new", "old"),
    [
        ("You're allergic to all shellfish", "no, just shrimp", "shrimp", "shellfish"),
        ("Your birthday is March 15th", "actually it's March 16th", "16th", "15th"),
        ("You live in Leicester", "close, but it's Leeds not Leicester", "Leeds", "Leicester"),
        (
            "Your wife is vegetarian",
            "no, she's pescatarian, not vegetarian",
            "pescatarian",
            "vegetarian",
        ),
        ("You're 42", "actually I'm 43", "43", "42"),
        (
            "You work out on Tuesdays and Thursdays",
            "no, Mondays and Wednesdays",
            "Mondays",
            "Thursdays",
        ),
        ("You live in Portland, Oregon", "close, but it's Portland, Maine", "Maine", "Oregon"),
        ("You have a dog called Biscuit", "Biscuit's a cat, actually", "cat", "dog"),
        (
            "You're allergic to penicillin",
            "sorry, I mixed them up: it's sulfa, not penicillin",
            "sulfa",
            "penicillin",
        ),
    ],
)
def test_refined_fact_has_the_new_value_not_the_old(
    held: str, reply: str, new: str, old: str
) -> None:
    refined = refine_fact(held, reply)
    assert new.lower() in refined.lower()
    assert old.lower() not in refined.lower()


def test_refinements_keep_the_frame_of_the_fact() -> None:
    assert (
        refine_fact("You're allergic to all shellfish", "no, just shrimp")
        == "You're allergic to shrimp"
    )
    assert refine_fact("Your birthday is March 15th", "actually it's March 16th") == (
        "Your birthday is March 16th"
    )
    assert refine_fact("You prefer working in the mornings", "only on weekdays") == (
        "You prefer working in the mornings on weekdays"
    )


def test_correction_body_drops_markers_and_asides() -> None:
    assert correction_body("oh, no — just shrimp") == "just shrimp"
    assert (
        correction_body("no, Mondays and Wednesdays — I mixed them up") == "Mondays and Wednesdays"
    )
    assert correction_body("yes") == ""


@pytest.mark.parametrize(
    ("held", "reply", "expected"),
    [
        (
            "Your daughter Lila is five and loves picking strawberries",
            "no, actually she's six",
            "Your daughter Lila is six and loves picking strawberries",
        ),
        (
            "You moved to Tucson last month",
            "no, it was two months ago",
            "You moved to Tucson two months ago",
        ),
        ("You don't eat meat or dairy", "no, just no red meat", "You don't eat red meat"),
        (
            "Your work email is dana.k@brightloop.io",
            "nope, it's dana.kim@brightloop.io",
            "Your work email is dana.kim@brightloop.io",
        ),
        (
            "Your frequent flyer number is QF 4471 2290",
            "no, it ends 2209",
            "Your frequent flyer number is QF 4471 2209",
        ),
        (
            "Your GP is Dr Feld at the Eastgate practice",
            "sorry it's Dr Fields, with an s at the end",
            "Your GP is Dr Fields at the Eastgate practice",
        ),
        (
            "Both of your kids are allergic to eggs",
            "no sorry, only the youngest, Theo",
            "Your youngest, Theo, is allergic to eggs",
        ),
        (
            "You're allergic to nuts",
            "well, only tree nuts — peanuts don't bother me",
            "You're allergic to tree nuts",
        ),
        (
            "Your mother-in-law is visiting for two weeks in July",
            "three weeks, not two",
            "Your mother-in-law is visiting for three weeks in July",
        ),
    ],
)
def test_value_number_word_time_narrowing_and_identifier_corrections(
    held: str, reply: str, expected: str
) -> None:
    assert refine_fact(held, reply) == expected


def test_an_addition_is_a_second_fact_shaped_like_the_first() -> None:
    from pipeline.english.refine import parallel_fact

    assert parallel_fact("You've got a ginger cat called Miso", "a greyhound called Rufus") == (
        "You've got a greyhound called Rufus"
    )
