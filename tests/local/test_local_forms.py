"""Sentence forms that decide an intent before the embedding does (no model needed)."""

from __future__ import annotations

import pytest

from pipeline.english.forms import form_intent
from pipeline.providers.local.responder import personal_clause


@pytest.mark.parametrize(
    ("message", "has_project", "intent"),
    [
        ("go on then, what's on file about me", False, "ask_about_past_input"),
        ("tell me everything you remember about me", False, "ask_about_past_input"),
        ("hey, so what exactly are you good for", False, "describe_capabilities"),
        (
            "if I tell you something personal, can I get you to drop it later on?",
            False,
            "describe_capabilities",
        ),
        (
            "Keep the long runs on flat routes, my left hip flares up on hills",
            True,
            "add_knowledge",
        ),
        ("I don't have any allergies, I was only wondering", False, "general_conversation"),
        # A kind of task (a bare plural), not one task: what the companion can do at all.
        ("could you send emails?", False, "describe_capabilities"),
        ("are you even allowed to keep anything between chats?", False, "describe_capabilities"),
        ("can you order groceries for me or only make lists?", True, "describe_capabilities"),
        # A wish that something is not kept asks to forget it.
        ("honestly I'd prefer you not keep my salary on file", False, "forget_about_me"),
        ("I don't want you storing where I work", False, "forget_about_me"),
        # Searching one's own notes is recall, not a web search.
        ("could you look through my notes for the tile size", True, "ask_about_past_input"),
    ],
)
def test_forms_decide(message: str, has_project: bool, intent: str) -> None:
    assert form_intent(message, has_project) == intent


@pytest.mark.parametrize(
    ("message", "has_project"),
    [
        ("Keep the long runs on flat routes", False),  # no project: not a project instruction
        ("get rid of the hallway vocals note", True),
        ("keep that to the EP please", True),
        ("what did I tell you about my birthday?", False),
        ("can you remind me to call the vet?", False),  # one task: a request, not a question
        ("are you able to book the 8:10 train for me?", False),
        ("do you like me or just tolerate me?", False),
        ("will you remember this?", False),
        ("search the web for flights to Oslo", False),
        ("I'm allergic to peanuts", True),
    ],
)
def test_other_messages_are_left_to_the_embedding(message: str, has_project: bool) -> None:
    assert form_intent(message, has_project) is None


def test_cross_promotion_names_the_personal_clause_of_a_note() -> None:
    assert personal_clause("Keep the long runs flat, my left hip flares up on hills") == (
        "Your left hip flares up on hills"
    )
    assert personal_clause("The soil pH should be 6.5") == ""
