"""The OpenAI-compatible providers: any Chat Completions server (Ollama, llama.cpp's server,
vLLM, ...) through the official openai SDK, for classifying and replying.

Settings come from options, then the environment (see `settings.ENV_VARS`); the base URL and
model are required, the key is optional and never logged. The SDK loads on first use, so
reading settings stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pipeline.providers.openai_compat.settings import ENV_VARS, PROVIDER, OpenAISettings

if TYPE_CHECKING:
    from pipeline.providers.openai_compat.classifier import OpenAIClassifier, response_format
    from pipeline.providers.openai_compat.client import make_client, openai_providers
    from pipeline.providers.openai_compat.responder import OpenAIResponder

_LAZY = {
    "OpenAIClassifier": "classifier",
    "response_format": "classifier",
    "make_client": "client",
    "openai_providers": "client",
    "OpenAIResponder": "responder",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "ENV_VARS",
    "PROVIDER",
    "OpenAIClassifier",
    "OpenAIResponder",
    "OpenAISettings",
    "make_client",
    "openai_providers",
    "response_format",
]
