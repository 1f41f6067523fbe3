"""The deterministic extraction takes entities from statements; a question opens a thread at
most, and a relation's name must be a capitalised name."""

from __future__ import annotations

import pytest

from pipeline.conversations import fallback


def _found(text: str) -> dict[str, list[dict]]:
    got = fallback.entities((("operator", text),))
    return {k: v for k, v in got.model_dump().items() if v}


@pytest.mark.parametrize(
    "question",
    [
        "where does my sister live again?",
        "Should I call my brother Tom?",
        "Do I need to renew the passport?",
        "what did we decide about the oak cabinets",
        "Is Dana going to email me the quote?",
    ],
)
def test_a_question_states_no_entity(question):
    assert _found(question) == {}


def test_a_question_may_open_a_thread():
    assert _found("I wonder if the oak will warp?") == {
        "questions_opened": [{"question": "if the oak will warp"}]
    }


def test_statements_still_give_their_entities():
    assert _found("my sister Lena lives in Porto.")["people"] == [
        {"name": "Lena", "context": "", "relation": "sister"}
    ]
    assert _found("My sister lives in Porto.") == {}  # "lives" is no name
    assert _found("I need to call my brother Tom.")["tasks"][0]["description"] == (
        "call my brother Tom"
    )
