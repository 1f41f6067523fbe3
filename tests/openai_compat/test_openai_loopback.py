"""The openai-compatible provider through the real openai SDK against a loopback Chat
Completions server: a round trip through converse(), each bad answer degrading, the request
body, the settings."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from evals.loopback.openai_server import (
    COMPLETIONS_PATH,
    SYNTHETIC_MODEL,
    OpenAILoopback,
    Step,
    completion,
    error,
    intent,
)
from pipeline.converse import TurnOutcome, converse
from pipeline.domain import NormativeForce
from pipeline.errors import ConverseError, ProviderError
from pipeline.intents.taxonomy import INTENTS
from pipeline.providers.base import ClassifyRequest, RespondRequest
from pipeline.providers.openai_compat import OpenAISettings
from pipeline.providers.registry import ProviderOptions, make_providers
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, get_person

FACT = "You're allergic to shellfish"


@pytest.fixture
def serve() -> Iterator[object]:
    servers: list[OpenAILoopback] = []

    def start(*script: Step, **settings: object):
        server = OpenAILoopback(script, lifetime=20.0).start()
        servers.append(server)
        options = {"base_url": server.url, "model": "qwen-test", "max_retries": 0, **settings}
        providers = make_providers("openai-compatible", ProviderOptions(settings=options))
        return server, providers

    yield start
    for server in servers:
        server.close()


def say(store: Store, providers, message: str) -> TurnOutcome:
    return converse(store, person="Ana", message=message, providers=providers)


def personal(store: Store) -> list[tuple[str, NormativeForce]]:
    with store.read() as session:
        person = get_person(session, "Ana")
        assert person.personal_engagement_id is not None
        return [
            (a.content, a.force)
            for a in repo.list_assertions(session, person.personal_engagement_id)
        ]


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    with sqlite_store.write() as session:
        create_person(session, "Ana")
    return sqlite_store


def test_remember_round_trip_is_held_and_rows_carry_the_server_model(serve, store) -> None:
    server, providers = serve(
        intent("remember_about_me", personal_fact=FACT),
        completion("I'll remember that you're allergic to shellfish — is that right?"),
    )
    outcome = say(store, providers, "I'm allergic to shellfish")
    assert outcome.classified.intent == "remember_about_me"
    assert outcome.classified.error is None
    assert outcome.classified.provider == "openai-compatible"
    assert outcome.classified.model == SYNTHETIC_MODEL
    assert personal(store) == [(FACT, NormativeForce.HELD)]
    assert outcome.reply.provider == "openai-compatible"
    assert outcome.reply.model == SYNTHETIC_MODEL
    assert outcome.reply.text.startswith("I'll remember that")
    assert outcome.companion_turn.meta["responder"]["model"] == SYNTHETIC_MODEL
    assert server.unmatched == 0 and len(server.requests) == 2

    classify, respond = server.requests
    assert classify["model"] == "qwen-test"
    assert classify["messages"][0]["role"] == "system"
    assert classify["messages"][-1] == {"role": "user", "content": "I'm allergic to shellfish"}
    # the responder: the assembled system prompt as one system message, no response format
    assert "response_format" not in respond
    system = respond["messages"][0]
    assert system["role"] == "system" and system["content"] == outcome.prompt.text
    assert respond["messages"][-1] == {"role": "user", "content": "I'm allergic to shellfish"}
    assert all(h["x-converse-prompts"].startswith("classifier/") for h in server.headers[:1])


def test_the_classify_request_constrains_the_answer_to_the_intent_schema(serve) -> None:
    server, providers = serve(intent("general_conversation"))
    got = providers.classifier.classify(ClassifyRequest(message="hello"))
    assert got.intent == "general_conversation" and got.error is None
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema"
    schema = fmt["json_schema"]["schema"]
    assert fmt["json_schema"]["name"] == "classify_intent"
    assert schema["properties"]["intent"]["enum"] == list(INTENTS)
    assert schema["required"] == ["intent"]
    assert {"personal_fact", "knowledge", "forget_description"} <= set(schema["properties"])


BAD_ANSWERS: Sequence[tuple[str, list[Step], str]] = [
    ("malformed-json", [completion('{"intent": "remember_about_me", ')], "not valid JSON"),
    (
        "unknown-intent",
        [intent("remember_pet", personal_fact="a cat")],
        "unknown intent 'remember_pet'",
    ),
    (
        "missing-parameter",
        [intent("add_knowledge")],
        "add_knowledge without its parameter knowledge",
    ),
    (
        "wrong-type",
        [completion('{"intent": "remember_about_me", "personal_fact": 1990}')],
        "does not match its schema: personal_fact",
    ),
    ("refusal", [completion(None, refusal="I can't help with that.")], "the model refused"),
    ("cut-off", [completion('{"intent": "remem', finish_reason="length")], "cut off"),
    ("empty", [completion("")], "answer was empty"),
    ("not-json-body", [Step("<html>oops</html>")], "body that is not JSON"),
    ("not-a-completion", [Step({"object": "list"})], "not a completion"),
    ("rate-limited", [error(429), error(429)], "HTTP 429 after 1 retry: scripted error"),
    ("server-error", [error(503), error(500)], "HTTP 500 after 1 retry"),
    ("bad-request", [error(400, "bad schema")], "HTTP 400: bad schema"),
]


@pytest.mark.parametrize(
    ("script", "expected"), [c[1:] for c in BAD_ANSWERS], ids=[c[0] for c in BAD_ANSWERS]
)
def test_a_bad_answer_degrades_to_conversation_and_touches_nothing_stored(
    serve, store, script: list[Step], expected: str
) -> None:
    server, providers = serve(*script, completion("Tell me more."), max_retries=1)
    outcome = say(store, providers, "I'm allergic to shellfish")
    assert outcome.classified.intent == "general_conversation"
    assert expected in (outcome.classified.error or "")
    assert personal(store) == []
    assert outcome.reply.text == "Tell me more."
    assert server.unmatched == 0


def test_a_timeout_degrades_the_classification_with_the_error(serve) -> None:
    slow = Step(completion("late").body, delay=1.0)
    _, providers = serve(slow, timeout=0.2)
    got = providers.classifier.classify(ClassifyRequest(message="hello"))
    assert got.intent == "general_conversation"
    assert got.error == "the Chat Completions API timed out"
    assert got.model == "qwen-test"


def test_responder_failures_raise_provider_error(serve, store) -> None:
    _, providers = serve(intent("general_conversation"), completion(None, refusal="no"), error(500))
    outcome = say(store, providers, "hello")
    assert outcome.reply.provider == "fallback"
    assert "the model refused to reply" in outcome.companion_turn.meta["responder"]["error"]
    request = RespondRequest(system=outcome.prompt, history=(), message="hi", route=outcome.route)
    with pytest.raises(ProviderError, match=r"^the Chat Completions API answered HTTP 500"):
        providers.responder.respond(request)


def test_a_reply_cut_off_at_max_tokens_is_marked_truncated(serve, store) -> None:
    _, providers = serve(
        intent("general_conversation"), completion("Half a", finish_reason="length")
    )
    outcome = say(store, providers, "hello")
    assert outcome.reply.text == "Half a" and outcome.reply.truncated


@pytest.mark.parametrize(
    ("environ", "missing"),
    [
        ({"CONVERSE_OPENAI_MODEL": "m"}, "CONVERSE_OPENAI_BASE_URL"),
        ({"CONVERSE_OPENAI_BASE_URL": "http://localhost:11434/v1"}, "CONVERSE_OPENAI_MODEL"),
    ],
)
def test_a_missing_base_url_or_model_is_one_usage_error_naming_it(
    environ: dict[str, str], missing: str
) -> None:
    with pytest.raises(ConverseError, match=missing) as caught:
        OpenAISettings.from_env(environ)
    assert "--provider-option openai-compatible." in str(caught.value)
    assert "\n" not in str(caught.value)


def test_settings_come_from_the_environment_and_the_key_is_never_shown() -> None:
    settings = OpenAISettings.from_env(
        {
            "CONVERSE_OPENAI_BASE_URL": "http://localhost:8080/v1",
            "CONVERSE_OPENAI_MODEL": "llama",
            "OPENAI_API_KEY": "sk-secret-value",
            "CONVERSE_OPENAI_MAX_RETRIES": "3",
        },
        model="override",
    )
    assert (settings.base_url, settings.model, settings.max_retries) == (
        "http://localhost:8080/v1",
        "override",
        3,
    )
    assert settings.api_key == "sk-secret-value"
    assert "sk-secret" not in repr(settings)


def test_the_loopback_stops_itself() -> None:
    server = OpenAILoopback([], lifetime=0.1).start()
    server._timer.join(timeout=5)
    assert server._closed
    assert COMPLETIONS_PATH == "/v1/chat/completions"


def test_the_fingerprint_changes_with_the_server_and_covers_the_shared_schema() -> None:
    def built(url: str):
        options = {"base_url": url, "model": "m", "max_retries": 0}
        return make_providers("openai-compatible", ProviderOptions(settings=options))

    one, other = built("http://a.invalid/v1"), built("http://b.invalid/v1")
    assert one.fingerprint != other.fingerprint
    assert one.fingerprint == built("http://a.invalid/v1").fingerprint
    assert {p.name for p in one.data_files} == {"intent_schema.py", "wire.py"}
