"""The `local-reader` provider: the trained reader, the shipped MiniLM lent for search,
template replies. Offline; compared case by case with `local`, the rule reader
(docs/reader.md), whose place it takes once it reads better."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.errors import ConverseError
from pipeline.local_settings import local_settings
from pipeline.providers.base import Providers
from pipeline.providers.local import ENGLISH_MODULES
from pipeline.providers.local.model import MODEL_NAME, MiniLMEmbedder
from pipeline.providers.local.responder import LocalResponder
from pipeline.providers.local_reader.classifier import ReaderClassifier
from pipeline.providers.reader.model import MANIFEST, read_manifest


def label(manifest: Mapping[str, Any]) -> str:
    """The provider's label, naming the weights and the corpus they were trained on."""
    return (
        f"local-reader (trained reader: heads {manifest['heads_sha256'][:12]}, corpus "
        f"{manifest['corpus_sha256'][:12]}, over {MODEL_NAME}; template replies — not an LLM)"
    )


def reader_providers(**unknown: object) -> Providers:
    """The trained reader and the template responder; the models load on the first message."""
    if unknown:
        raise ConverseError(
            f"unknown local option {sorted(unknown)[0]!r}",
            "the trained reader takes no options (local takes examples, min_confidence)",
        )
    local_settings()  # a bad CONVERSE_LOCAL_* is refused now, whether or not a model is loaded
    manifest = read_manifest()  # a missing manifest is one error now, naming the rebuild
    classifier = ReaderClassifier(MiniLMEmbedder())
    return Providers(
        classifier,
        LocalResponder(),
        label(manifest),
        model=classifier.model,
        embedder=classifier.embedder,
        # the heads and their manifest key its answers, and the English that restates spans
        data_files=(MANIFEST, MANIFEST.parent / manifest["heads"], *ENGLISH_MODULES),
        warm_up=classifier.warm_up,
        weights=str(manifest["heads_sha256"]),
    )


__all__ = ["ReaderClassifier", "label", "reader_providers"]
