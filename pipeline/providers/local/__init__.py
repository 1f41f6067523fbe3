"""The embedded default provider: all-MiniLM-L6-v2 for intents, template replies, offline.

Used when ANTHROPIC_API_KEY is not set. docs/local-model.md explains how it decides.
"""

from __future__ import annotations

from pathlib import Path

from pipeline import english
from pipeline.errors import ConverseError
from pipeline.local_settings import local_settings
from pipeline.providers.base import Providers
from pipeline.providers.local.classifier import MIN_CONFIDENCE, LocalClassifier
from pipeline.providers.local.examples import examples_path
from pipeline.providers.local.model import MODEL_NAME, MiniLMEmbedder, is_loaded, loaded_model
from pipeline.providers.local.responder import LocalResponder

ENGLISH_MODULES = tuple(sorted(Path(english.__file__).parent.glob("*.py")))
LABEL = f"local ({MODEL_NAME} classifier, template replies — not an LLM)"


def local_providers(
    examples: Path | str | None = None,
    min_confidence: float | str | None = None,
    **unknown: object,
) -> Providers:
    """The local classifier and responder; the model loads on the first message.

    Options may come as strings (`--provider-option local.min_confidence=0.4`).
    """
    if unknown:
        raise ConverseError(
            f"unknown local option {sorted(unknown)[0]!r}", "options: examples, min_confidence"
        )
    try:
        threshold = MIN_CONFIDENCE if min_confidence is None else float(min_confidence)
    except ValueError as exc:
        raise ConverseError(
            f"local.min_confidence must be a number, not {min_confidence!r}", "e.g. 0.3"
        ) from exc
    local_settings()  # a bad CONVERSE_LOCAL_* is refused now, whether or not the model is loaded
    path = Path(examples) if examples is not None else None
    classifier = LocalClassifier(MiniLMEmbedder(), examples=path, min_confidence=threshold)
    return Providers(
        classifier,
        LocalResponder(),
        LABEL,
        model=classifier.model,
        embedder=classifier.embedder,  # lent to the pipeline for semantic forget and recall
        # the English rules it reads with live in pipeline/english: they key its answers too
        data_files=(path or examples_path(), *ENGLISH_MODULES),
        warm_up=classifier.warm_up,
    )


__all__ = [
    "LABEL",
    "MODEL_NAME",
    "LocalClassifier",
    "LocalResponder",
    "MiniLMEmbedder",
    "is_loaded",
    "loaded_model",
    "local_providers",
]
