"""After an erase, the next turns' requests to the model carry nothing of the erased fact:
neither the history (blanked turns) nor the personal-memory block. Claude providers against
the loopback server, whose received request bodies are the evidence."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from evals.loopback import Answer, LoopbackServer
from pipeline.converse import TurnOutcome, converse
from pipeline.memory.manage import erase_fact
from pipeline.providers.claude import claude_providers
from pipeline.providers.registry import Providers
from pipeline.store import Store
from pipeline.store.people import create_person, create_project

PROJECT = "Weeknight cooking"
ASK = "What should I cook tonight?"


class CapturingServer(LoopbackServer):
    """The loopback server, keeping every request body it received."""

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__(answers)
        self.bodies: list[str] = []

    def answer(self, body: Any) -> tuple[int, str, dict[str, str]]:
        self.bodies.append(json.dumps(body, ensure_ascii=False))
        return super().answer(body)


# A word found in no prompt template, so any trace of it in a request is the erased fact.
TELL = "I'm allergic to quinces"
OFFER = "I'll remember that you're allergic to quinces — is that right?"
FACT = {"intent": "remember_about_me", "personal_fact": "You're allergic to quinces"}


@pytest.fixture
def server() -> Iterator[CapturingServer]:
    answers = [
        Answer(kind="classify", message=TELL, tool_input=FACT),
        Answer(kind="respond", message=TELL, text=OFFER),
        Answer(kind="classify", message="yes", after=OFFER, tool_input=FACT),
        Answer(kind="respond", message="yes", after=OFFER, text="Got it, I'll remember that."),
        Answer(kind="classify", message=ASK, tool_input={"intent": "general_conversation"}),
        Answer(kind="respond", message=ASK, text="How about a mushroom risotto?"),
    ]
    with CapturingServer(answers) as running:
        yield running


def _say(store: Store, providers: Providers, message: str, project: str | None) -> TurnOutcome:
    return converse(store, person="Ana", project=project, message=message, providers=providers)


@pytest.mark.parametrize("project", [None, PROJECT], ids=["history", "memory-block"])
def test_the_next_turns_model_requests_do_not_carry_an_erased_fact(
    sqlite_store: Store, server: CapturingServer, project: str | None
) -> None:
    with sqlite_store.write() as session:
        create_project(session, create_person(session, "Ana"), PROJECT, "Quick dinners")
    providers = claude_providers(api_key="loopback-key", base_url=server.url, max_retries=0)
    _say(sqlite_store, providers, TELL, None)
    _say(sqlite_store, providers, "yes", None)
    _say(sqlite_store, providers, ASK, project)
    assert "quinces" in " ".join(server.bodies[-2:])  # the control: it was sent before

    erase_fact(sqlite_store, "Ana", "quinces")
    server.bodies.clear()
    outcome = _say(sqlite_store, providers, ASK, project)

    assert outcome.reply.text == "How about a mushroom risotto?"
    assert len(server.bodies) == 2  # classify and respond
    assert not [body for body in server.bodies if "quince" in body.casefold()]
    assert "[erased at the person's request]" in server.bodies[0] or project is not None
