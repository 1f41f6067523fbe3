"""In replies as in commands, #N is a personal fact and notes#N a project's note."""

from __future__ import annotations

import re

import pytest

from pipeline.domain import RouteResult
from pipeline.providers.replies import compose_reply

NOTE = {"display_number": 3, "content": "Larch beds", "force": "held"}
FACT = {"display_number": 3, "content": "You like figs", "force": "committed"}

# Every reply that names a project note's number.
NOTE_REPLIES = [
    RouteResult(
        intent="add_knowledge", operation_data={"assertion_display_number": 3, "knowledge": "x"}
    ),
    RouteResult(intent="list_knowledge", operation_data={"items": [NOTE]}),
    RouteResult(intent="commit_knowledge", operation_data={"action": "committed", "items": [NOTE]}),
    RouteResult(
        intent="retract_knowledge", operation_data={"action": "confirm_retraction", "item": NOTE}
    ),
    RouteResult(intent="retract_knowledge", operation_data={"action": "retracted", "item": NOTE}),
    RouteResult(
        intent="retract_knowledge", operation_data={"action": "ambiguous", "candidates": [NOTE]}
    ),
    RouteResult(intent="retract_knowledge", operation_data={"action": "restored", "item": NOTE}),
    RouteResult(
        intent="general_conversation",
        operation_data={"action": "kept_in_project", "assertion_display_number": 3},
    ),
]


@pytest.mark.parametrize(
    "route", NOTE_REPLIES, ids=lambda r: f"{r.intent}-{r.operation_data.get('action')}"
)
def test_a_note_is_named_notes_n_in_every_reply(route):
    reply = compose_reply(route)
    assert "notes#3" in reply
    assert not re.search(r"(?<!notes)#\d", reply), reply


def test_a_recall_inside_a_project_tells_facts_and_notes_apart():
    reply = compose_reply(
        RouteResult(
            intent="ask_about_past_input",
            operation_data={
                "action": "found",
                "everything": True,
                "items": [{**FACT, "where": "personal"}, {**NOTE, "where": "project"}],
            },
        )
    )
    assert (
        "About you: #3 You like figs." in reply and "In this project: notes#3 Larch beds." in reply
    )
