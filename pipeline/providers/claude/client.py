"""The SDK client and the Claude classifier and responder that share it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anthropic
import httpx2
from anthropic import MiddlewareInput

from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import intent_schema
from pipeline.providers.base import Providers
from pipeline.providers.claude.classifier import ClaudeClassifier
from pipeline.providers.claude.responder import ClaudeResponder
from pipeline.providers.claude.settings import ClaudeSettings


def make_client(
    settings: ClaudeSettings,
    *,
    middleware: Sequence[MiddlewareInput] = (),
    http_client: httpx2.Client | None = None,
) -> anthropic.Anthropic:
    """An SDK client with the settings' key, base URL, timeout and retries."""
    return anthropic.Anthropic(
        api_key=settings.require_key(),
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        middleware=list(middleware) or None,
        http_client=http_client,
    )


def claude_providers(
    *,
    library: PromptLibrary | None = None,
    middleware: Sequence[MiddlewareInput] = (),
    http_client: httpx2.Client | None = None,
    **options: Any,
) -> Providers:
    """The Claude classifier and responder sharing one client.

    `options` are ClaudeSettings fields (classifier_model, timeout, max_retries, base_url,
    api_key, ...); None means "use the environment or the default". `middleware` and
    `http_client` go to the SDK client unchanged.
    """
    settings = ClaudeSettings.from_env(**options)
    client = make_client(settings, middleware=middleware, http_client=http_client)
    library = library or default_library()
    return Providers(
        classifier=ClaudeClassifier(client, settings, library),
        responder=ClaudeResponder(client, settings),
        model=settings.classifier_model,
        # The classification answer's schema is shared with other providers, outside the package.
        data_files=(Path(intent_schema.__file__),),
        label=(
            f"claude ({settings.classifier_model} classifies, {settings.responder_model} replies)"
        ),
    )
