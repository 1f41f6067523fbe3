"""The loopback server speaks the Messages wire format: bodies, usage, errors and status codes."""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import anthropic
import httpx2
import pytest

from evals.loopback import Answer, ErrorAnswer, LoopbackServer

ANSWERS = [
    Answer(kind="classify", message="hello", tool_input={"intent": "general_conversation"}),
    Answer(kind="respond", message="hello", text="Hi there."),
    Answer(kind="respond", message="hello", after="offer", text="Following up."),
    Answer(
        kind="respond",
        message="busy",
        error=ErrorAnswer(status=529, type="overloaded_error", message="Overloaded"),
    ),
    Answer(
        kind="respond",
        message="slow down",
        error=ErrorAnswer(status=429, type="rate_limit_error", retry_after=7),
    ),
    Answer(kind="respond", message="broken", error=ErrorAnswer(status=500, type="api_error")),
    Answer(kind="respond", message="no", stop_reason="refusal"),
]
TOOL = {"name": "classify_intent", "input_schema": {"type": "object", "properties": {}}}


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(ANSWERS) as running:
        yield running


def post(
    server: LoopbackServer,
    body: object,
    headers: dict[str, str] | None = None,
    path: str = "/v1/messages",
) -> httpx2.Response:
    sent = {"x-api-key": "loopback", **(headers or {})}
    return httpx2.post(server.url + path, json=body, headers=sent)


def request(message: str, **extra: object) -> dict[str, object]:
    return {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": message}],
        **extra,
    }


def test_a_forced_tool_call_comes_back_as_a_tool_use_block(server: LoopbackServer) -> None:
    body = request("hello", tools=[TOOL], tool_choice={"type": "tool", "name": "classify_intent"})
    reply = post(server, body).json()
    assert reply["type"] == "message" and reply["role"] == "assistant"
    assert reply["model"] == "synthetic-fixture"
    assert reply["stop_reason"] == "tool_use"
    [block] = reply["content"]
    assert block["type"] == "tool_use" and block["name"] == "classify_intent"
    assert block["id"].startswith("toolu_synthetic_")
    assert block["input"] == {"intent": "general_conversation"}
    assert set(reply["usage"]) == {
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
    }


def test_the_most_specific_answer_wins(server: LoopbackServer) -> None:
    plain = post(server, request("hello")).json()
    after = request("hello")
    after["messages"] = [
        {"role": "user", "content": "start"},
        {"role": "assistant", "content": "An offer?"},
        {"role": "user", "content": "hello"},
    ]
    assert plain["content"] == [{"type": "text", "text": "Hi there."}]
    assert post(server, after).json()["content"][0]["text"] == "Following up."


def cached(chars: int) -> list[dict[str, object]]:
    return [{"type": "text", "text": "x" * chars, "cache_control": {"type": "ephemeral"}}]


def test_a_cached_prefix_at_the_models_minimum_is_written_once_then_read(
    server: LoopbackServer,
) -> None:
    body = request("hello", system=cached(4096))  # 1,024 tokens: Sonnet 4.6's minimum
    body["model"] = "claude-sonnet-4-6"
    first = post(server, body).json()["usage"]
    second = post(server, body).json()["usage"]
    assert (first["cache_creation_input_tokens"], first["cache_read_input_tokens"]) == (1024, 0)
    assert (second["cache_creation_input_tokens"], second["cache_read_input_tokens"]) == (0, 1024)


@pytest.mark.parametrize(
    ("model", "chars"),
    [
        ("claude-sonnet-4-6", 4092),  # 1,023 tokens, one short of 1,024
        ("claude-haiku-4-5", 16380),  # 4,095 tokens, one short of 4,096
        ("claude-haiku-4-5-20251001", 8192),  # a dated id has its alias's minimum
        ("some-unlisted-model", 8192),  # unknown: the most conservative minimum, 4,096
    ],
)
def test_a_prefix_below_the_models_minimum_is_never_cached(
    server: LoopbackServer, model: str, chars: int
) -> None:
    body = request("hello", system=cached(chars))
    body["model"] = model
    for _ in range(2):
        usage = post(server, body).json()["usage"]
        assert usage["cache_creation_input_tokens"] == usage["cache_read_input_tokens"] == 0
        assert usage["input_tokens"] >= chars // 4


@pytest.mark.parametrize(
    ("message", "status", "kind"),
    [
        ("busy", 529, "overloaded_error"),
        ("slow down", 429, "rate_limit_error"),
        ("broken", 500, "api_error"),
    ],
)
def test_scripted_errors_have_their_status_and_error_body(
    server: LoopbackServer, message: str, status: int, kind: str
) -> None:
    response = post(server, request(message))
    assert response.status_code == status
    assert response.json()["type"] == "error"
    assert response.json()["error"]["type"] == kind
    if status == 429:
        assert response.headers["retry-after"] == "7"


def test_wire_problems_are_errors_like_the_api_gives(server: LoopbackServer) -> None:
    missing_key = httpx2.post(server.url + "/v1/messages", json=request("hello"))
    assert (missing_key.status_code, missing_key.json()["error"]["type"]) == (
        401,
        "authentication_error",
    )
    wrong_path = post(server, request("hello"), path="/v1/complete")
    assert (wrong_path.status_code, wrong_path.json()["error"]["type"]) == (404, "not_found_error")
    no_messages = post(server, {"model": "m", "max_tokens": 1, "messages": []})
    assert no_messages.status_code == 400
    assert no_messages.json()["error"] == {
        "type": "invalid_request_error",
        "message": "messages: at least one message is required",
    }
    unscripted = post(server, request("something else"))
    assert unscripted.status_code == 400
    assert server.unmatched[-1].message == "something else"


def test_responses_are_gzipped_when_the_client_accepts_it(server: LoopbackServer) -> None:
    raw = httpx2.Client().build_request(
        "POST",
        server.url + "/v1/messages",
        json=request("hello"),
        headers={"x-api-key": "k", "accept-encoding": "gzip"},
    )
    with httpx2.Client() as client:
        response = client.send(raw, stream=True)
        compressed = b"".join(response.iter_raw())
    assert response.headers["content-encoding"] == "gzip"
    assert b"Hi there." in gzip.decompress(compressed)


def test_the_sdk_raises_its_own_error_classes_for_the_scripted_errors(
    server: LoopbackServer,
) -> None:
    client = anthropic.Anthropic(api_key="loopback", base_url=server.url, max_retries=0)
    messages = [{"role": "user", "content": "busy"}]
    with pytest.raises(anthropic.OverloadedError):
        client.messages.create(model="m", max_tokens=10, messages=messages)
    messages = [{"role": "user", "content": "slow down"}]
    with pytest.raises(anthropic.RateLimitError):
        client.messages.create(model="m", max_tokens=10, messages=messages)
    messages = [{"role": "user", "content": "no"}]
    refused = client.messages.create(model="m", max_tokens=10, messages=messages)
    assert refused.stop_reason == "refusal" and refused.content == []
