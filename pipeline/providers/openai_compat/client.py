"""The SDK client and the classifier and responder that share it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import httpx2
import openai

from pipeline.english import ENGLISH
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import intent_schema
from pipeline.providers.base import Providers, code_fingerprint
from pipeline.providers.claude import wire
from pipeline.providers.openai_compat.classifier import OpenAIClassifier
from pipeline.providers.openai_compat.endpoints import Spread, split_urls
from pipeline.providers.openai_compat.responder import OpenAIResponder
from pipeline.providers.openai_compat.settings import NO_KEY, PROVIDER, OpenAISettings
from pipeline.redact import redact


def make_client(
    settings: OpenAISettings, *, http_client: httpx2.Client | None = None
) -> openai.OpenAI:
    """An SDK client with the settings' server, key (a placeholder when none), timeout and
    retries (the SDK's: 408, 409, 429, 5xx and timeouts, with backoff). Several servers in
    `base_url`, or a per-server bound, send each call through `Spread` (endpoints.py)."""
    urls = split_urls(settings.base_url)
    if http_client is None and (len(urls) > 1 or settings.per_endpoint_concurrency):
        http_client = httpx2.Client(
            transport=Spread(urls, settings.per_endpoint_concurrency), timeout=settings.timeout
        )
    return openai.OpenAI(
        api_key=settings.api_key or NO_KEY,
        base_url=urls[0],
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        http_client=http_client,
    )


def openai_providers(
    *,
    library: PromptLibrary | None = None,
    http_client: httpx2.Client | None = None,
    **options: Any,
) -> Providers:
    """The classifier and responder sharing one client.

    `options` are OpenAISettings fields (base_url, model, api_key, timeout, max_retries, ...);
    None means "use the environment or the default".
    """
    settings = OpenAISettings.from_env(**options)
    client = make_client(settings, http_client=http_client)
    library = library or default_library()
    classifier = OpenAIClassifier(client, settings, library)
    responder = OpenAIResponder(client, settings)
    # The answer schema and the history format live outside this package; and one model name
    # can mean different weights on two servers, so the server is part of the fingerprint.
    data_files = (Path(intent_schema.__file__), Path(wire.__file__))
    code = code_fingerprint(classifier, responder, files=data_files)
    # A record names the server, never its credentials (pipeline/redact.py); a new password
    # for the same server keeps the cache.
    server = redact(settings.base_url)
    fingerprint = hashlib.sha256(f"{code}\n{server}".encode()).hexdigest()
    return Providers(
        classifier=classifier,
        responder=responder,
        model=settings.model,
        label=f"{PROVIDER} ({settings.model} at {server})",
        data_files=data_files,
        fingerprint=fingerprint,
        # its prompts are English: keyword matching skips English stop words (pipeline/lexicon.py)
        lexicon=ENGLISH,
    )
