"""Parameter extraction: framing stripped, personal facts restated in the second person."""

from __future__ import annotations

import pytest

from pipeline.english.extract import (
    forget_description,
    knowledge,
    note_reference,
    params_for,
    personal_fact,
    query,
    stub_params,
    to_second_person,
)


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("Just so you know, I'm vegetarian.", "You're vegetarian"),
        ("I'm allergic to shellfish", "You're allergic to shellfish"),
        ("Remember that my birthday is March 15th", "Your birthday is March 15th"),
        ("FYI I was born in Lagos", "You were born in Lagos"),
        ("Please keep in mind I am a beginner", "You are a beginner"),
        ("By the way, we have two cats", "You have two cats"),
        (
            "I prefer working in the mornings, for future reference",
            "You prefer working in the mornings",
        ),
    ],
)
def test_personal_fact_has_no_framing_and_speaks_to_the_person(message: str, fact: str) -> None:
    assert personal_fact(message) == fact


def test_you_in_the_message_becomes_the_companion() -> None:
    assert (
        to_second_person("I'm dyslexic when you write for me")
        == "You're dyslexic when I write for you"
    )


def test_project_knowledge_keeps_the_operators_words() -> None:
    assert knowledge("Note that the soil pH should be 6.5") == "The soil pH should be 6.5"
    assert (
        knowledge("I set the oven to 220 for this recipe")
        == "I set the oven to 220 for this recipe"
    )


@pytest.mark.parametrize(
    ("message", "description"),
    [
        ("Forget that I live in Miami", "I live in Miami"),
        ("please forget my birthday", "my birthday"),
        ("Stop remembering that I'm vegetarian", "I'm vegetarian"),
        ("You can forget about my knee injury, it's healed", "my knee injury"),
        ("Remove the fact that I work night shifts from your memory", "I work night shifts"),
        ("Can you unlearn that I'm gluten free? I was wrong about it", "I'm gluten free"),
    ],
)
def test_forget_description_is_what_to_forget(message: str, description: str) -> None:
    assert forget_description(message) == description


def test_query_and_note_references() -> None:
    assert query("What did I say about the soil pH?") == "the soil pH"
    assert query("do you remember my birthday?") == "my birthday"
    assert query("search my notes for what I said about the starter") == "the starter"
    assert query("go through our chats for the hotel name") == "the hotel name"
    assert note_reference("Lock in #3") == "#3"
    assert note_reference("commit note 2 and note 4") == "#2 #4"
    assert note_reference("Mark all of those as final") == "all of those"
    assert note_reference("Remove the note about PostgreSQL from this project") == "PostgreSQL"


def test_stub_parameters_are_best_effort() -> None:
    assert stub_params("set_reminder", "Remind me to water the seedlings tomorrow") == {
        "reminder": "water the seedlings",
        "when": "tomorrow",
    }
    assert stub_params("export_project", "Export the notes as a PDF") == {"format": "pdf"}
    assert stub_params("share_project", "Share this project with my sister") == {
        "recipient": "my sister"
    }


def test_params_for_names_the_intents_parameter() -> None:
    assert params_for("remember_about_me", "I live in Leeds") == {
        "personal_fact": "You live in Leeds"
    }
    assert params_for("general_conversation", "hi") == {}
    assert set(params_for("retract_knowledge", "drop note 4")) == {"knowledge_description"}
