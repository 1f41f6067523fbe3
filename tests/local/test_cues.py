"""The message forms handlers read (pipeline/intents/cues.py)."""

from __future__ import annotations

import pytest

from pipeline.english.cues import (
    asks_everything,
    asks_to_forget,
    asks_to_restore,
    forget_object,
    is_affirmation,
    is_correction,
    is_cross_promotion_offer,
    is_rejection,
    limits_to_project,
    without_cues,
)


@pytest.mark.parametrize(
    "message",
    [
        "no, actually she's six",
        "nope, it's b@x.org",
        "sorry I mean east",
        "ah no, he's five now",
        "sulfa, not penicillin",
        "Tuesdays instead",
        "just shrimp",
        "it was two months ago",
        "yes but only on weekends",
    ],
)
def test_corrections_carry_a_cue(message: str) -> None:
    assert is_correction(message)


@pytest.mark.parametrize(
    "message",
    ["I'm allergic to kiwi", "my father is 81", "wait, what else can you do?", "yes", ""],
)
def test_statements_and_questions_are_not_corrections(message: str) -> None:
    assert not is_correction(message)


@pytest.mark.parametrize(
    "message",
    [
        "never mind",
        "no",
        "nah",
        "forget it",
        "eh, don't bother",
        "no thanks, don't bother",
        "nah no need to keep that, it's a one-off",
        "actually i'd rather you didn't keep that anywhere",
        "meh, skip it",
    ],
)
def test_outright_rejections(message: str) -> None:
    assert is_rejection(message)


@pytest.mark.parametrize(
    "message",
    [
        "no, just shrimp",
        "no, just this project",
        "no, my birthday instead",
        "what's a good wine with pasta?",
        "well, only tree nuts — peanuts don't bother me",
        "yes, drop it",
    ],
)
def test_corrections_questions_and_yes_are_not_rejections(message: str) -> None:
    assert not is_rejection(message)


@pytest.mark.parametrize("message", ["yes", "sure, go ahead", "yep", "that's right", "do it"])
def test_affirmations(message: str) -> None:
    assert is_affirmation(message)


@pytest.mark.parametrize("message", ["no", "yes but it's March 16th", "never mind"])
def test_not_affirmations(message: str) -> None:
    assert not is_affirmation(message)


def test_scope_to_project_by_words_or_by_the_project_name() -> None:
    assert limits_to_project("no, just this project")
    assert limits_to_project("no, that's just for the lessons", "Spanish lessons")
    assert not limits_to_project("no, just shrimp", "Weeknight cooking")


@pytest.mark.parametrize(
    ("message", "described"),
    [
        ("Please forget that I'm a new dad", "I'm a new dad"),
        ("Delete the note that I go bouldering on Sundays", "I go bouldering on Sundays"),
        ("You can stop remembering that I surf", "I surf"),
        ("I'd rather you didn't remember that I see a therapist", "I see a therapist"),
        ("actually, I don't want you keeping my home address", "my home address"),
    ],
)
def test_forget_framing_and_its_object(message: str, described: str) -> None:
    assert asks_to_forget(message)
    assert forget_object(message) == described


def test_dont_forget_asks_to_remember() -> None:
    assert not asks_to_forget("Don't forget I'm vegan")
    assert not asks_to_forget("I'd rather you remembered that I'm vegan")


def test_restore_and_broad_recall_and_cross_promotion() -> None:
    assert asks_to_restore("put the irrigation note back")
    assert asks_to_restore("can you bring back the tile note I deleted?")
    assert asks_everything("what do you know about me?")
    assert asks_everything("go on then, what's on file about me")
    assert not asks_everything("what did I tell you about my birthday?")
    assert is_cross_promotion_offer("Noted. Want me to remember that across all your projects?")
    assert not is_cross_promotion_offer("I'll remember that — is that right?")
    assert without_cues("no, my birthday instead") == "my birthday"
