"""Fixtures for the local provider: the real model once per session, and a fake embedder."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from pipeline.memory.embeddings import Vectors, normalized
from pipeline.providers.local import LocalClassifier, MiniLMEmbedder


class CountingEmbedder:
    """A deterministic bag-of-words embedder that counts the texts it was asked to embed."""

    model_name = "fake-bow-64"
    dim = 64

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.embedded.extend(texts)
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                slot = int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim
                rows[i, slot] += 1.0
        return normalized(rows)


@pytest.fixture
def fake_embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    """The real model (loaded once per process)."""
    return MiniLMEmbedder()


@pytest.fixture(scope="session")
def classifier(embedder: MiniLMEmbedder) -> Iterator[LocalClassifier]:
    """The local classifier over the project's examples (the probe is cached on disk)."""
    found = LocalClassifier(embedder)
    found.warm_up()
    yield found
