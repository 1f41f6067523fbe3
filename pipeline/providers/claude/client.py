"""The SDK client and the Claude classifier and responder that share it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anthropic
import httpx2
from anthropic import MiddlewareInput

from pipeline.english import ENGLISH
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import intent_schema
from pipeline.providers.base import Providers
from pipeline.providers.claude.adaptive import AdaptiveLimit
from pipeline.providers.claude.classifier import ClaudeClassifier
from pipeline.providers.claude.responder import ClaudeResponder
from pipeline.providers.claude.retries import CallRetries, RateLimit, Sleep, shared_rate_limit
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.structured import ClaudeStructured
from pipeline.providers.claude.summarizer import ClaudeSummarizer


def make_client(
    settings: ClaudeSettings,
    *,
    middleware: Sequence[MiddlewareInput] = (),
    http_client: httpx2.Client | None = None,
    sleep: Sleep = time.sleep,
    rate_limit: RateLimit | None = None,
) -> anthropic.Anthropic:
    """An SDK client with the settings' key, base URL and timeout.

    The SDK's retries are off: `CallRetries` retries whole calls; inside it `AdaptiveLimit`
    (one per client) paces calls by the rate-limit headers and lowers and raises
    concurrency on 429/529 answers, and `RateLimit` spaces them when CONVERSE_CLAUDE_RPM is set;
    `middleware` runs outside all three."""
    limit = rate_limit
    if limit is None and settings.requests_per_minute:
        limit = shared_rate_limit(settings.base_url or "", settings.requests_per_minute)
    retries = CallRetries(
        settings.max_retries, sleep=sleep, limited_attempts=settings.limited_attempts
    )
    chain: list[MiddlewareInput] = [*middleware, retries]
    if settings.adaptive_limits:
        # One per client: the classifier, responder and every worker of a run share it, and
        # nothing learnt from one server (or one cassette) holds calls to another.
        chain.append(AdaptiveLimit(sleep=sleep))
    if limit is not None:
        chain.append(limit)
    return anthropic.Anthropic(
        api_key=settings.require_key(),
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=0,
        middleware=chain,
        http_client=http_client,
    )


def claude_providers(
    *,
    library: PromptLibrary | None = None,
    middleware: Sequence[MiddlewareInput] = (),
    http_client: httpx2.Client | None = None,
    sleep: Sleep = time.sleep,
    rate_limit: RateLimit | None = None,
    **options: Any,
) -> Providers:
    """The Claude classifier and responder sharing one client.

    `options` are ClaudeSettings fields (classifier_model, timeout, max_retries, base_url,
    api_key, ...); None means "use the environment or the default". `middleware` and
    `http_client` go to the SDK client unchanged; `sleep` and `rate_limit` replace the waits
    of retries and of the request rate (tests).
    """
    settings = ClaudeSettings.from_env(**options)
    client = make_client(
        settings,
        middleware=middleware,
        http_client=http_client,
        sleep=sleep,
        rate_limit=rate_limit,
    )
    library = library or default_library()
    return Providers(
        classifier=ClaudeClassifier(client, settings, library),
        responder=ClaudeResponder(client, settings),
        summarizer=ClaudeSummarizer(client, settings),
        structured=ClaudeStructured(client, settings),
        model=settings.classifier_model,
        # The classification answer's schema is shared with other providers, outside the package.
        data_files=(Path(intent_schema.__file__),),
        label=(
            f"claude ({settings.classifier_model} classifies, {settings.responder_model} replies)"
        ),
        # its prompts are English: keyword matching skips English stop words (pipeline/lexicon.py)
        lexicon=ENGLISH,
    )
