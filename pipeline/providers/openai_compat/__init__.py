"""The OpenAI-compatible providers: any Chat Completions server (Ollama, llama.cpp's server,
vLLM, ...) through the official openai SDK, for classifying and replying.

Settings come from options, then the environment (see `settings.ENV_VARS`); the base URL and
model are required, the key is optional and never logged. The SDK loads on first use, so
reading settings stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports
from pipeline.providers.openai_compat.settings import ENV_VARS, PROVIDER, OpenAISettings

if TYPE_CHECKING:
    from pipeline.providers.openai_compat.classifier import OpenAIClassifier, response_format
    from pipeline.providers.openai_compat.client import make_client, openai_providers
    from pipeline.providers.openai_compat.responder import OpenAIResponder

_LAZY = {
    "OpenAIClassifier": ".classifier",
    "response_format": ".classifier",
    "make_client": ".client",
    "openai_providers": ".client",
    "OpenAIResponder": ".responder",
}

__getattr__ = lazy_exports(__name__, _LAZY)


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
