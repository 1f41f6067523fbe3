"""The Claude responder's tool loop against the loopback server: status notes written through
update_status reach the next turn's prompt, search_memory's results go back to the model,
malformed tool input is refused to the model (not raised), and the rounds are bounded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from evals.loopback import Answer, LoopbackServer
from pipeline.converse import TurnOutcome, converse
from pipeline.providers.claude import claude_providers
from pipeline.providers.claude.responder import MAX_TOOL_ROUNDS
from pipeline.providers.registry import Providers
from pipeline.store import Store
from pipeline.store.people import create_person
from pipeline.store.status import current_notes

CHAT = {"intent": "general_conversation"}
CAR = "ugh, the car is at the shop until Friday"
LATER = "any tips for getting across town this week?"
LAPTOP = "my laptop is being repaired"
LOOP = "keep looking, please"
DENTIST = "I booked the dentist for the ninth of March"
ASK = "when was that appointment again?"


class CapturingServer(LoopbackServer):
    """The loopback server, keeping every request body it received."""

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__(answers)
        self.bodies: list[dict[str, Any]] = []

    def answer(self, body: Any) -> tuple[int, str, dict[str, str]]:
        self.bodies.append(body)
        return super().answer(body)


@pytest.fixture
def server() -> Iterator[CapturingServer]:
    answers = [
        *(
            Answer(kind="classify", message=m, tool_input=CHAT)
            for m in (CAR, LATER, LAPTOP, LOOP, DENTIST, ASK)
        ),
        Answer(
            kind="respond",
            message=CAR,
            tool_name="update_status",
            tool_input={"topic": "the car", "text": "In for a new clutch till Friday"},
        ),
        Answer(
            kind="respond", message=CAR, tool_result="noted", text="Fingers crossed for Friday."
        ),
        Answer(kind="respond", message=LATER, text="The bus or a bike could cover it till Friday."),
        # malformed: no text
        Answer(
            kind="respond", message=LAPTOP, tool_name="update_status", tool_input={"topic": "x"}
        ),
        Answer(kind="respond", message=LAPTOP, tool_result="bad input", text="Hope it's quick."),
        # a model that never stops calling tools
        Answer(
            kind="respond",
            message=LOOP,
            tool_name="search_memory",
            tool_input={"query": "anything at all"},
            text="Here's where I got to.",
        ),
        Answer(kind="respond", message=DENTIST, text="Good to have it booked."),
        Answer(
            kind="respond",
            message=ASK,
            tool_name="search_memory",
            tool_input={"query": "dentist appointment"},
        ),
    ]
    with CapturingServer(answers) as running:
        yield running


@pytest.fixture
def providers(server: CapturingServer) -> Providers:
    return claude_providers(api_key="sk-ant-test", base_url=server.url, max_retries=0)


def _say(store: Store, providers: Providers, message: str, person: str = "Ana") -> TurnOutcome:
    return converse(store, person=person, message=message, providers=providers)


def _people(store: Store, *names: str) -> None:
    with store.write() as session:
        for name in names:
            create_person(session, name)


def test_update_status_reaches_the_next_prompt_and_the_request(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana")
    first = _say(sqlite_store, providers, CAR)
    assert first.reply.text == "Fingers crossed for Friday."
    assert [(n.topic, n.text) for n in first.status_notes] == [
        ("car", "In for a new clutch till Friday")
    ]
    assert first.companion_turn.meta["responder"]["tools"] == [
        {"name": "update_status", "ok": True}
    ]
    second = _say(sqlite_store, providers, LATER)
    assert "car: In for a new clutch till Friday" in second.prompt.text
    last = server.bodies[-1]
    system = "".join(b["text"] for b in last["system"])
    assert "car: In for a new clutch till Friday" in system  # what the model was sent
    assert {t["name"] for t in last["tools"]} == {"update_status", "search_memory"}


def test_the_tool_result_goes_back_with_the_tool_use_id(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana")
    _say(sqlite_store, providers, CAR)
    second = server.bodies[-1]
    assistant, result = second["messages"][-2:]
    use = next(b for b in assistant["content"] if b["type"] == "tool_use")
    (block,) = result["content"]
    assert block["type"] == "tool_result" and block["tool_use_id"] == use["id"]
    assert "noted under 'car'" in block["content"] and "is_error" not in block


def test_malformed_tool_input_is_refused_to_the_model_and_nothing_is_noted(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana")
    outcome = _say(sqlite_store, providers, LAPTOP)
    assert outcome.reply.text == "Hope it's quick."
    assert outcome.status_notes == ()
    (block,) = server.bodies[-1]["messages"][-1]["content"]
    assert block["is_error"] is True and "bad input for update_status: text" in block["content"]
    assert outcome.companion_turn.meta["responder"]["tools"] == [
        {"name": "update_status", "ok": False}
    ]
    with sqlite_store.read() as session:
        assert current_notes(session, outcome.operator_turn.person_id) == []


def test_too_many_rounds_end_with_tools_turned_off(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana")
    outcome = _say(sqlite_store, providers, LOOP)
    responds = [b for b in server.bodies if "tools" in b and "tool_choice" not in b]
    finals = [b for b in server.bodies if b.get("tool_choice") == {"type": "none"}]
    assert len(responds) == MAX_TOOL_ROUNDS and len(finals) == 1
    assert outcome.reply.text == "Here's where I got to."
    assert outcome.reply.provider == "claude"
    assert len(outcome.companion_turn.meta["responder"]["tools"]) == MAX_TOOL_ROUNDS


def test_search_memory_leaves_out_the_turns_already_in_context(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana")
    _say(sqlite_store, providers, DENTIST)
    # The dentist turn is still in the context, so the search leaves it out.
    in_context = _say(sqlite_store, providers, ASK)
    assert in_context.reply.provider == "fallback"  # no scripted answer for "nothing found"
    results = json.dumps(server.bodies[-1]["messages"][-1]["content"])
    assert "nothing found" in results


def test_one_persons_notes_never_reach_anothers_request(
    sqlite_store: Store, providers: Providers, server: CapturingServer
) -> None:
    _people(sqlite_store, "Ana", "Ben")
    _say(sqlite_store, providers, CAR, person="Ana")
    ben = _say(sqlite_store, providers, LATER, person="Ben")
    assert "In for a new clutch till Friday" not in ben.prompt.text
    assert "In for a new clutch till Friday" not in json.dumps(server.bodies[-1])
