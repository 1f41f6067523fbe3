"""The Claude providers without cassettes: settings, the wire format, timeouts and errors."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from pipeline.converse import converse
from pipeline.domain import HistoryTurn, PromptRef, Role
from pipeline.errors import ConverseError, ProviderError
from pipeline.providers.base import ClassifyRequest, RespondRequest
from pipeline.providers.claude import ClaudeSettings, claude_providers, parse_prompts_header
from pipeline.providers.claude.calls import describe_api_error
from pipeline.providers.claude.settings import set_command_options
from pipeline.providers.claude.wire import classifier_note, history_messages, prompts_header


def providers_on(transport: httpx2.BaseTransport):
    return claude_providers(
        api_key="offline-test",
        base_url="http://claude.invalid",
        max_retries=0,
        http_client=httpx2.Client(transport=transport),
    )


def raising(exc: Exception) -> httpx2.MockTransport:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise exc

    return httpx2.MockTransport(handler)


def test_a_timeout_degrades_the_classification_with_the_error() -> None:
    providers = providers_on(raising(httpx2.ReadTimeout("read timed out")))
    got = providers.classifier.classify(ClassifyRequest(message="I'm allergic to shellfish"))
    assert got.intent == "general_conversation"
    assert got.error == "the Messages API timed out"
    assert got.provider == "claude" and got.model == "claude-haiku-5-5"
    assert [r.family for r in got.prompt_refs] == ["classifier"]


def test_an_unreachable_api_degrades_the_classification_naming_the_cause() -> None:
    providers = providers_on(raising(httpx2.ConnectError("connection refused")))
    got = providers.classifier.classify(ClassifyRequest(message="hello"))
    assert got.error == "could not reach the Messages API: ConnectError: connection refused"


def test_a_responder_timeout_raises_provider_error_and_converse_answers_offline(
    sqlite_store, make_person
) -> None:
    make_person(sqlite_store)
    providers = providers_on(raising(httpx2.ReadTimeout("read timed out")))
    outcome = converse(sqlite_store, person="ana", message="hello", providers=providers)
    assert outcome.reply.provider == "fallback"
    assert outcome.companion_turn.meta["responder"]["error"].startswith(
        "the Messages API timed out — "
    )
    request = RespondRequest(system=outcome.prompt, history=(), message="hi", route=outcome.route)
    with pytest.raises(ProviderError, match=r"^the Messages API timed out"):
        providers.responder.respond(request)


def status_error(cls: type[anthropic.APIStatusError], status: int, kind: str, message: str):
    request = httpx2.Request("POST", "http://claude.invalid/v1/messages")
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return cls(message, response=httpx2.Response(status, request=request, json=body), body=body)


def test_api_errors_are_one_line_and_say_whether_retries_were_spent() -> None:
    overloaded = status_error(anthropic.OverloadedError, 529, "overloaded_error", "Overloaded")
    assert describe_api_error(overloaded, 2) == (
        "the Messages API answered HTTP 529 overloaded_error after 2 retries: Overloaded"
    )
    limited = status_error(anthropic.RateLimitError, 429, "rate_limit_error", "slow down")
    assert describe_api_error(limited, 1) == (
        "the Messages API answered HTTP 429 rate_limit_error after 1 retry: slow down"
    )
    bad = status_error(anthropic.BadRequestError, 400, "invalid_request_error", "max_tokens: 0")
    assert describe_api_error(bad, 2) == (
        "the Messages API answered HTTP 400 invalid_request_error: max_tokens: 0"
    )


def test_settings_come_from_defaults_environment_command_line_and_options() -> None:
    env = {
        "CONVERSE_CLAUDE_CLASSIFIER_MODEL": "env-classifier",
        "CONVERSE_CLAUDE_TIMEOUT": "12.5",
        "CONVERSE_CLAUDE_MAX_RETRIES": "5",
        "ANTHROPIC_BASE_URL": "http://localhost:8080",
        "ANTHROPIC_API_KEY": "secret-value",
    }
    try:
        set_command_options(max_retries=1, responder_model=None)
        settings = ClaudeSettings.from_env(env, classifier_max_tokens="64")
    finally:
        set_command_options()
    assert settings.classifier_model == "env-classifier"
    assert settings.responder_model == "claude-sonnet-5-5"
    assert (settings.timeout, settings.max_retries, settings.classifier_max_tokens) == (12.5, 1, 64)
    assert settings.base_url == "http://localhost:8080"
    assert "secret-value" not in repr(settings)
    both = ClaudeSettings.from_env({}, model="one-model")
    assert (both.classifier_model, both.responder_model) == ("one-model", "one-model")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"CONVERSE_CLAUDE_MAX_RETRIES": "many"},
            "CONVERSE_CLAUDE_MAX_RETRIES='many' is not valid: input should be a valid integer, "
            "unable to parse string as an integer — "
            "fix or unset CONVERSE_CLAUDE_MAX_RETRIES (docs/settings.md lists every setting)",
        ),
        (
            {"CONVERSE_CLAUDE_TIMEOUT": "0"},
            "CONVERSE_CLAUDE_TIMEOUT='0' is not valid: input should be greater than 0 — "
            "fix or unset CONVERSE_CLAUDE_TIMEOUT (docs/settings.md lists every setting)",
        ),
    ],
)
def test_bad_settings_are_errors_naming_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConverseError) as caught:
        ClaudeSettings.from_env(env)
    assert str(caught.value) == message


def test_an_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(ConverseError, match=r"^unknown Claude option 'temperature' — options: "):
        ClaudeSettings.from_env({}, temperature="0")


def test_without_a_key_the_error_says_how_to_give_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConverseError) as caught:
        claude_providers()
    assert str(caught.value) == (
        "ANTHROPIC_API_KEY is not set, so Claude cannot be called — "
        "export ANTHROPIC_API_KEY=..., or choose --provider local"
    )


OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that you're allergic to shellfish — is that right?",
    intent="remember_about_me",
    operation_data={"action": "held", "personal_fact": "You're allergic to shellfish"},
)


def test_history_becomes_alternating_messages_starting_with_the_person() -> None:
    history = (
        HistoryTurn(role=Role.COMPANION, content="(an earlier reply whose question was cut off)"),
        HistoryTurn(role=Role.OPERATOR, content="I'm allergic to shellfish"),
        OFFER,
        HistoryTurn(role=Role.OPERATOR, content="hmm"),
    )
    messages = history_messages(history, "yes")
    assert messages == [
        {"role": "user", "content": "I'm allergic to shellfish"},
        {"role": "assistant", "content": OFFER.content},
        {"role": "user", "content": "hmm\n\nyes"},
    ]


def test_the_classifier_sees_what_each_companion_turn_did() -> None:
    messages = history_messages((OFFER,), "yes", notes=True)
    assert messages[0]["content"] == "yes"  # a leading companion turn is dropped
    with_person = history_messages(
        (HistoryTurn(role=Role.OPERATOR, content="I'm allergic to shellfish"), OFFER),
        "yes",
        notes=True,
    )
    assert with_person[1]["content"] == (
        f'{OFFER.content}\n\n[this turn served remember_about_me — action: "held"; '
        'personal_fact: "You\'re allergic to shellfish"]'
    )
    ambiguous = HistoryTurn(
        role=Role.COMPANION,
        content="Which one?",
        intent="forget_about_me",
        operation_data={
            "action": "ambiguous",
            "candidates": [
                {"display_number": 2, "content": "You live in Miami"},
                {"display_number": 5, "content": "You used to live in Miami Beach"},
            ],
        },
    )
    assert classifier_note(ambiguous) == (
        '[this turn served forget_about_me — action: "ambiguous"; '
        "candidates: #2 You live in Miami; #5 You used to live in Miami Beach]"
    )


def test_the_provenance_header_round_trips() -> None:
    refs = [
        PromptRef(family="persona", version="v1", sha256="a" * 64),
        PromptRef(family="instructions/forget_about_me", version="v2", sha256="b" * 64),
    ]
    header = prompts_header(refs)
    assert header == {
        "x-converse-prompts": f"persona/v1={'a' * 64},instructions/forget_about_me/v2={'b' * 64}"
    }
    assert list(parse_prompts_header(header["x-converse-prompts"]).values()) == refs
