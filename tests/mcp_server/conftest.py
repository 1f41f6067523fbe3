"""The MCP tests' shared embedder: the embedded model, loaded once per module."""

from __future__ import annotations

import pytest

from pipeline.providers.local.model import MiniLMEmbedder


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()
