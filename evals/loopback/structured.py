"""Claude's structured generator pointed at the loopback server, with every request body it
sent: the one setup of the tests that script structured answers (compression stages, fact
extraction, the worker's jobs)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import httpx2

from evals.loopback.answers import Answer
from evals.loopback.server import LoopbackServer
from pipeline.providers import StructuredGenerator
from pipeline.providers.claude import claude_providers


@contextmanager
def loopback_structured(
    answers: Sequence[Answer], model: str = "claude-sonnet-4-6"
) -> Iterator[tuple[StructuredGenerator, list[dict[str, Any]]]]:
    """(the generator, the JSON bodies sent so far) while the server answers in order."""
    sent: list[dict[str, Any]] = []

    def keep(request: httpx2.Request) -> None:
        sent.append(json.loads(request.content))

    with (
        LoopbackServer(answers) as server,
        httpx2.Client(event_hooks={"request": [keep]}) as http,
    ):
        providers = claude_providers(
            api_key="loopback",
            base_url=server.url,
            max_retries=0,
            responder_model=model,
            http_client=http,
        )
        if providers.structured is None:
            raise AssertionError("the Claude provider lends no structured generator")
        yield providers.structured, sent
