"""The Claude responder's tools through converse(), on a synthetic cassette: a status reported
with update_status is in the next turn's system prompt, and the reply does not ask for it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pipeline.converse import converse
from pipeline.providers.registry import Providers
from pipeline.store import Store
from pipeline.store.people import create_person

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]

STATUS = "The boiler is broken, an engineer comes Wednesday"
LATER = "It's freezing in the flat tonight"


def test_synthetic_a_status_noted_with_the_tool_is_sent_on_the_next_turn(
    sqlite_store: Store, claude: Callable[..., Providers]
) -> None:
    providers = claude()
    with sqlite_store.write() as session:
        create_person(session, "Ana")

    def say(message: str):  # type: ignore[no-untyped-def]
        return converse(sqlite_store, person="Ana", message=message, providers=providers)

    first = say(STATUS)
    assert first.reply.provider == "claude"
    assert [(n.topic, n.text) for n in first.status_notes] == [
        ("boiler", "Broken; an engineer comes Wednesday")
    ]
    second = say(LATER)
    assert "boiler: Broken; an engineer comes Wednesday" in second.prompt.text
    # The scripted answer is served only to a request whose system prompt holds the note.
    assert second.reply.text == "Extra blankets until Wednesday's engineer visit, then."
    assert "?" not in second.reply.text
