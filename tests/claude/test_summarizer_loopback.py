"""The Claude summarizer against the loopback server: the request shape the model takes, the
answer read into a Summary, and an unusable answer refused (compaction then tries again)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from evals.loopback import Answer, LoopbackServer
from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ProviderError
from pipeline.providers.claude import claude_providers
from pipeline.providers.summarize import SummarizeRequest

INSTRUCTIONS = "You are summarising a conversation for a personal assistant."
SUMMARY = {"summary": "Ana's car is at the shop until Friday.", "facts": ["You drive a Skoda"]}
REQUEST = SummarizeRequest(
    turns=(
        HistoryTurn(role=Role.OPERATOR, content="My Skoda is at the shop until Friday"),
        HistoryTurn(role=Role.COMPANION, content="That's a long wait — how are you getting by?"),
    ),
    previous_summary="",
    instructions=INSTRUCTIONS,
    budget_tokens=1_000,
    operator_name="ana",
)


def _summarize(answer: Answer, model: str) -> tuple[object, dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    def keep(request: httpx2.Request) -> None:
        sent.append(json.loads(request.content))

    with (
        LoopbackServer([answer]) as server,
        httpx2.Client(event_hooks={"request": [keep]}) as http,
    ):
        providers = claude_providers(
            api_key="loopback",
            base_url=server.url,
            max_retries=0,
            responder_model=model,
            http_client=http,
        )
        assert providers.summarizer is not None
        try:
            return providers.summarizer.summarize(REQUEST), sent[-1]
        except ProviderError as exc:
            return exc, sent[-1]


@pytest.mark.parametrize(
    ("model", "forced"), [("claude-sonnet-5-5", False), ("claude-sonnet-4-6", True)]
)
def test_the_summary_and_its_facts_come_back_in_the_models_request_shape(
    model: str, forced: bool
) -> None:
    got, body = _summarize(
        Answer(kind="classify", system_contains=INSTRUCTIONS, tool_input=SUMMARY), model
    )
    assert not isinstance(got, Exception), got
    assert got.text == SUMMARY["summary"]  # type: ignore[attr-defined]
    assert got.facts == ("You drive a Skoda",)  # type: ignore[attr-defined]
    assert got.method.startswith("claude ")  # type: ignore[attr-defined]
    assert ("tools" in body) is forced
    assert ("format" in body.get("output_config", {})) is not forced
    sent = json.dumps(body["messages"])
    assert "My Skoda is at the shop" in sent and "<untrusted" in sent


def test_an_unusable_answer_is_a_provider_error() -> None:
    got, _ = _summarize(
        Answer(kind="classify", system_contains=INSTRUCTIONS, tool_input={"facts": []}),
        "claude-sonnet-4-6",
    )
    assert isinstance(got, ProviderError)
    assert "unusable" in str(got)
