"""The Claude summarizer counts tokens with the SDK's `messages.count_tokens` against the
loopback server, and compaction measures its threshold with that count."""

from __future__ import annotations

import json
import math
from typing import Any

import httpx2
import pytest

from evals.loopback import LoopbackServer
from pipeline.compaction import measure
from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ProviderError
from pipeline.providers.claude import claude_providers
from pipeline.providers.summarize import TokenCounter

TURNS = [
    HistoryTurn(role=Role.COMPANION, content="Morning! How did the tiling go?"),
    HistoryTurn(role=Role.OPERATOR, content="The kitchen tiles are laid, grout on Friday."),
    HistoryTurn(role=Role.COMPANION, content="Lovely. Grey grout or white?"),
]


def _summarizer(url: str, sent: list[tuple[str, dict[str, Any]]]):  # type: ignore[no-untyped-def]
    def keep(request: httpx2.Request) -> None:
        sent.append((request.url.path, json.loads(request.content)))

    http = httpx2.Client(event_hooks={"request": [keep]})
    providers = claude_providers(api_key="loopback", base_url=url, max_retries=0, http_client=http)
    assert providers.summarizer is not None
    return providers.summarizer


def test_the_count_comes_from_the_count_tokens_endpoint() -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    with LoopbackServer([]) as server:
        summarizer = _summarizer(server.url, sent)
        assert isinstance(summarizer, TokenCounter)
        size, how = measure(TURNS, summarizer)
    path, body = sent[-1]
    assert path == "/v1/messages/count_tokens"
    roles = [m["role"] for m in body["messages"]]
    # a user turn first and last (the API's rules), the turns in order between
    assert roles == ["user", "assistant", "user", "assistant", "user"]
    assert [m["content"] for m in body["messages"][1:4]] == [t.content for t in TURNS]
    # the loopback counts the messages' JSON at four characters a token
    expected = math.ceil(len(json.dumps(body["messages"], ensure_ascii=False)) / 4)
    assert (size, how) == (float(expected), "count_tokens")
    assert expected != sum(len(t.content) for t in TURNS) / 4  # not the estimate


def test_a_count_that_cannot_be_had_is_a_provider_error_and_compaction_estimates() -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    with LoopbackServer([]) as server:
        summarizer = _summarizer(server.url, sent)
    # the server is gone: the SDK cannot connect
    with pytest.raises(ProviderError, match="could not reach"):
        summarizer.count_tokens(TURNS)
    size, how = measure(TURNS, summarizer)
    assert (size, how) == (sum(len(t.content) for t in TURNS) / 4, "estimate")
