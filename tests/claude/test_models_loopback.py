"""The capability table picks the request shape, and the loopback server holds each model to it."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx2
import pytest

from evals.loopback import Answer, LoopbackServer
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.claude import claude_providers
from pipeline.providers.claude.models import (
    DEFAULT_CLASSIFIER_MODEL,
    DEFAULT_RESPONDER_MODEL,
    THINKING_HEADROOM,
    caps_of,
    classifier_shape,
    thinking_plan,
)
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.registry import Providers

FACT = {"intent": "remember_about_me", "personal_fact": "You're allergic to shellfish"}
ANSWERS = [
    Answer(kind="classify", message="I'm allergic to shellfish", tool_input=FACT),
    Answer(kind="respond", text="I'll remember that — is that right?"),
]
TOOL = {"name": "classify_intent", "input_schema": {"type": "object", "properties": {}}}
FORCED = {"type": "tool", "name": "classify_intent"}


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(ANSWERS) as running:
        yield running


def providers(server: LoopbackServer, model: str, **options: object) -> Providers:
    return claude_providers(
        api_key="loopback", base_url=server.url, max_retries=0, model=model, **options
    )


def post(server: LoopbackServer, model: str, **body: object) -> httpx2.Response:
    sent = {
        "model": model,
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "I'm allergic to shellfish"}],
        **body,
    }
    return httpx2.post(f"{server.url}/v1/messages", json=sent, headers={"x-api-key": "k"})


def rejected(response: httpx2.Response) -> str:
    """The 400 invalid_request_error body the API sends, and its message."""
    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    return str(body["error"]["message"])


# --- the table ----------------------------------------------------------------------------


def test_the_defaults_are_current_models_and_legacy_ones_are_marked() -> None:
    assert ClaudeSettings().classifier_model == DEFAULT_CLASSIFIER_MODEL == "claude-haiku-5-5"
    assert ClaudeSettings().responder_model == DEFAULT_RESPONDER_MODEL == "claude-sonnet-5-5"
    for model in (DEFAULT_CLASSIFIER_MODEL, DEFAULT_RESPONDER_MODEL):
        caps = caps_of(model)
        assert caps is not None and not caps.legacy
    for legacy in ("claude-haiku-4-5", "claude-sonnet-4-6", "claude-haiku-4-5-20251001"):
        caps = caps_of(legacy)
        assert caps is not None and caps.legacy


@pytest.mark.parametrize(
    ("model", "shape"),
    [
        ("claude-haiku-4-5", "forced_tool"),
        ("claude-haiku-4-5-20251001", "forced_tool"),
        ("claude-sonnet-4-6", "forced_tool"),
        ("claude-haiku-5-5", "structured_output"),
        ("claude-sonnet-5-5", "structured_output"),
        ("claude-opus-5-5", "structured_output"),
        ("some-compatible-server-model", "forced_tool"),
    ],
)
def test_the_classifier_shape_comes_from_the_table(model: str, shape: str) -> None:
    assert classifier_shape(model) == shape


def test_thinking_is_turned_off_as_far_as_each_model_allows() -> None:
    assert thinking_plan("claude-haiku-4-5", 512).thinking is None  # off unless asked for
    assert thinking_plan("claude-haiku-5-5", 512).thinking == {"type": "disabled"}
    assert thinking_plan("claude-sonnet-5-5", 512).thinking == {"type": "between_tools"}
    always_on = thinking_plan("claude-opus-5-5", 512)
    assert always_on.thinking is None and always_on.effort == "low"
    assert always_on.max_tokens == 512 + THINKING_HEADROOM  # thinking counts against it


# --- the loopback server enforces the table's rules ---------------------------------------------


def test_a_forced_tool_choice_is_rejected_where_the_model_does_not_take_one(
    server: LoopbackServer,
) -> None:
    message = rejected(
        post(server, "claude-sonnet-5-5", tools=[TOOL], tool_choice=FORCED, thinking={
            "type": "between_tools"
        })
    )  # fmt: skip
    assert message.startswith("tool_choice: forced tool use is not supported on claude-sonnet-5-5")
    ok = post(server, "claude-haiku-4-5", tools=[TOOL], tool_choice=FORCED)
    assert ok.status_code == 200 and ok.json()["content"][0]["type"] == "tool_use"


def test_a_forced_tool_choice_with_thinking_on_is_rejected(server: LoopbackServer) -> None:
    message = rejected(
        post(server, "claude-haiku-4-5", tools=[TOOL], tool_choice=FORCED, thinking={
            "type": "enabled", "budget_tokens": 1024
        }, max_tokens=2048)
    )  # fmt: skip
    assert message == "Thinking may not be enabled when tool_choice forces tool use."


def test_a_prefill_is_rejected_from_the_4_6_models_on(server: LoopbackServer) -> None:
    prefilled = [
        {"role": "user", "content": "I'm allergic to shellfish"},
        {"role": "assistant", "content": "{"},
    ]
    for model in ("claude-sonnet-4-6", "claude-haiku-5-5", "claude-sonnet-5-5"):
        message = rejected(post(server, model, messages=prefilled))
        assert message.startswith("This model does not support assistant message prefill.")
    assert post(server, "claude-haiku-4-5", messages=prefilled).status_code == 200


def test_thinking_types_the_model_does_not_take_are_rejected(server: LoopbackServer) -> None:
    assert "between_tools" in rejected(
        post(server, "claude-sonnet-5-5", thinking={"type": "disabled"})
    )
    assert rejected(post(server, "claude-opus-5-5", thinking={"type": "disabled"})) == (
        "thinking cannot be disabled on claude-opus-5-5"
    )
    budget = {"type": "enabled", "budget_tokens": 1024}
    assert "budget_tokens" in rejected(post(server, "claude-haiku-5-5", thinking=budget))
    assert rejected(post(server, "claude-haiku-4-5", thinking={"type": "adaptive"})) == (
        "adaptive thinking is not supported on this model"
    )
    assert rejected(post(server, "claude-haiku-4-5", thinking=budget, max_tokens=1024)) == (
        "max_tokens must be greater than thinking.budget_tokens"
    )


def test_a_structured_output_request_is_answered_with_json_text(server: LoopbackServer) -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    output = {"format": {"type": "json_schema", "schema": schema}}
    reply = post(server, "claude-sonnet-5-5", output_config=output).json()
    assert [b["type"] for b in reply["content"]] == ["thinking", "text"]  # thinking stays on
    assert json.loads(reply["content"][1]["text"]) == FACT
    assert reply["stop_reason"] == "end_turn"
    loose = {"format": {"type": "json_schema", "schema": {"type": "object"}}}
    assert "additionalProperties" in rejected(
        post(server, "claude-sonnet-5-5", output_config=loose)
    )


# --- the providers send the shape the table names, and the server accepts it -------------------


@pytest.mark.parametrize("model", ["claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5"])
def test_current_models_classify_through_structured_output(
    server: LoopbackServer, model: str
) -> None:
    got = providers(server, model).classifier.classify(
        ClassifyRequest(message="I'm allergic to shellfish")
    )
    assert got.error is None
    assert (got.intent, got.params) == (
        "remember_about_me",
        {"personal_fact": FACT["personal_fact"]},
    )
    assert server.unmatched == []


def test_a_legacy_model_classifies_through_a_forced_tool(server: LoopbackServer) -> None:
    got = providers(server, "claude-haiku-4-5").classifier.classify(
        ClassifyRequest(message="I'm allergic to shellfish")
    )
    assert got.error is None and got.intent == "remember_about_me"


def test_forcing_a_tool_on_a_model_that_rejects_it_degrades_with_the_api_error(
    server: LoopbackServer,
) -> None:
    classifier = providers(server, "claude-sonnet-5-5", classifier_shape="forced_tool").classifier
    got = classifier.classify(ClassifyRequest(message="I'm allergic to shellfish"))
    assert got.intent == "general_conversation"
    assert got.error is not None
    assert got.error.startswith(
        "the Messages API answered HTTP 400 invalid_request_error: tool_choice: forced tool use "
        "is not supported on claude-sonnet-5-5"
    )


STRUCTURED_FAILURES = [
    ("not json", Answer(kind="classify", message="not json", tool_input_raw="{intent: oops"),
     "the structured answer is not valid JSON"),
    ("wrong type", Answer(kind="classify", message="wrong type",
                          tool_input={"intent": "remember_about_me", "personal_fact": 1990}),
     "the structured answer does not match its schema: personal_fact: Input should be a valid string"),
    ("refused", Answer(kind="classify", message="refused", stop_reason="refusal"),
     "the model refused to classify (stop_reason refusal)"),
    ("cut off", Answer(kind="classify", message="cut off", text='{"intent": "rem',
                       stop_reason="max_tokens"),
     "the structured answer was cut off at max_tokens (512)"),
    ("empty", Answer(kind="classify", message="empty", stop_reason="end_turn"),
     "the model gave no structured answer (stop_reason end_turn)"),
    ("unknown", Answer(kind="classify", message="unknown", tool_input={"intent": "remember_pet"}),
     "unknown intent 'remember_pet'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("message", "answer", "error"), STRUCTURED_FAILURES, ids=[c[0] for c in STRUCTURED_FAILURES]
)
def test_an_unusable_structured_answer_degrades_with_the_reason(
    message: str, answer: Answer, error: str
) -> None:
    with LoopbackServer([answer]) as running:
        got = providers(running, "claude-haiku-5-5").classifier.classify(
            ClassifyRequest(message=message)
        )
    assert got.intent == "general_conversation"
    assert got.error is not None and got.error.startswith(error)


def test_thinking_blocks_are_stripped_before_the_turn_is_stored(
    server: LoopbackServer, tmp_path: object
) -> None:
    """A responder whose thinking stays on (Claude Opus 5.5) answers with a thinking block
    first; the stored companion turn holds the reply's text alone."""
    from pathlib import Path

    from pipeline.converse import converse
    from pipeline.store import open_store
    from pipeline.store.people import create_person
    from pipeline.store.turns import recent_turns

    store = open_store(f"sqlite:///{Path(str(tmp_path)) / 'c.db'}")
    with store.write() as session:
        person = create_person(session, "ana")
    built = providers(server, DEFAULT_CLASSIFIER_MODEL, responder_model="claude-opus-5-5")
    outcome = converse(store, person="ana", message="I'm allergic to shellfish", providers=built)
    assert outcome.reply.text == "I'll remember that — is that right?"
    with store.read() as session:
        stored = [t.content for t in recent_turns(session, person.id, None, 10)]
    assert stored == ["I'm allergic to shellfish", "I'll remember that — is that right?"]
    assert not any("synthetic loopback" in text for text in stored)
    store.dispose()
