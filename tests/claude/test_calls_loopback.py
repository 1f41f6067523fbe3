"""What a call's failure or cut-off reply is said to be, with the SDK against the loopback server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evals.loopback import Answer, ErrorAnswer, LoopbackServer
from pipeline.converse import converse
from pipeline.domain import Reply, Usage
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.claude import claude_providers
from pipeline.providers.claude.prices import PRICES_VERSION, cost, price_of, total_cost
from pipeline.providers.registry import Providers
from pipeline.store import Store
from pipeline.store.people import create_person

ANSWERS = [
    Answer(
        kind="classify",
        message="do not retry",
        error=ErrorAnswer(
            status=529, type="overloaded_error", message="Overloaded", should_retry=False
        ),
    ),
    Answer(
        kind="classify",
        message="busy",
        error=ErrorAnswer(status=529, type="overloaded_error", message="Overloaded", retry_after=0),
    ),
    Answer(kind="classify", tool_input={"intent": "general_conversation"}),
    Answer(kind="respond", text="Here is a long answer that goes on and", stop_reason="max_tokens"),
]


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(ANSWERS) as running:
        yield running


def providers(server: LoopbackServer, retries: int = 2) -> Providers:
    return claude_providers(
        api_key="loopback", base_url=server.url, max_retries=retries, rate_limit_retries=retries
    )


def test_a_failure_the_server_says_not_to_retry_is_not_called_retried(
    server: LoopbackServer,
) -> None:
    got = providers(server).classifier.classify(ClassifyRequest(message="do not retry"))
    assert got.error == (
        "the Messages API answered HTTP 529 overloaded_error, not retried (the server sent "
        "x-should-retry: false): Overloaded"
    )
    assert len(server.seen) == 1


def test_a_failure_the_sdk_retried_says_how_often(server: LoopbackServer) -> None:
    got = providers(server, retries=1).classifier.classify(ClassifyRequest(message="busy"))
    assert got.error == (
        "the Messages API answered HTTP 529 overloaded_error after 1 retry: Overloaded"
    )
    assert len(server.seen) == 2


def test_a_reply_cut_off_at_max_tokens_is_kept_and_marked_truncated(
    server: LoopbackServer, sqlite_store: Store
) -> None:
    with sqlite_store.write() as session:
        create_person(session, "Ana")
    claude = providers(server)
    outcome = converse(
        sqlite_store, person="Ana", project=None, message="Tell me everything", providers=claude
    )
    assert outcome.reply.text == "Here is a long answer that goes on and"
    assert outcome.reply.truncated is True
    assert outcome.companion_turn.meta["responder"]["truncated"] is True
    assert outcome.companion_turn.meta["responder"]["error"] is None


def test_costs_come_from_the_dated_price_table() -> None:
    usage = Usage(
        input_tokens=1_000_000,
        output_tokens=1_000_000,
        cache_read_input_tokens=1_000_000,
        cache_creation_input_tokens=1_000_000,
    )
    assert PRICES_VERSION == "2026-11-26"
    assert cost("claude-haiku-4-5", usage) == pytest.approx(1 + 5 + 0.10 + 1.25)
    assert cost("claude-sonnet-4-6", usage) == pytest.approx(3 + 15 + 0.30 + 3.75)
    assert price_of("claude-haiku-4-5-20251001") == price_of("claude-haiku-4-5")
    assert cost("synthetic-fixture", usage) is None
    assert total_cost([0.5, 0.25]) == 0.75
    assert total_cost([0.5, None]) is None
    assert Reply(text="x").truncated is False
