"""The embedded default provider: all-MiniLM-L6-v2 for intents, template replies, offline.

Used when ANTHROPIC_API_KEY is not set. docs/local-model.md explains how it decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.providers.local.classifier import LocalClassifier
from pipeline.providers.local.model import MODEL_NAME, MiniLMEmbedder, loaded_model
from pipeline.providers.local.responder import LocalResponder

if TYPE_CHECKING:
    from pipeline.providers.registry import Providers

LABEL = f"local ({MODEL_NAME} classifier, template replies — not an LLM)"


def local_providers(examples: Path | None = None, min_confidence: float | None = None) -> Providers:
    """The local classifier and responder; the model loads on the first message."""
    from pipeline.providers.registry import Providers

    options = {} if min_confidence is None else {"min_confidence": min_confidence}
    classifier = LocalClassifier(MiniLMEmbedder(), examples=examples, **options)
    return Providers(classifier, LocalResponder(), LABEL)


__all__ = [
    "LABEL",
    "MODEL_NAME",
    "LocalClassifier",
    "LocalResponder",
    "MiniLMEmbedder",
    "loaded_model",
    "local_providers",
]
