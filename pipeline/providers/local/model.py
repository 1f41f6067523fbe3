"""The embedded sentence-embedding model, all-MiniLM-L6-v2, loaded once per process, lazily.

Two embedders run it: `onnx` (the default: an int8 ONNX file on onnxruntime, no torch) and
`torch` (sentence-transformers, only with the `torch` extra, for comparison).
`CONVERSE_EMBEDDER` chooses. Each stamps its id on the vectors it stores, so vectors of one
embedder are never read as another's.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.english.surface import without_surface
from pipeline.errors import ProviderError
from pipeline.local_settings import local_settings, local_threads
from pipeline.memory.embeddings import Vectors
from pipeline.providers.local import onnx

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
BACKENDS = ("onnx", "torch")
DEFAULT_BACKEND = "onnx"
# Two threads that never spin (onnx.load): on an idle 2-core machine a message takes 4.3-4.6
# ms against 5.5 with one; with another process busy on one core, 5.4 ms, as one thread
# (spinning threads fell to 7.7 ms there). The vectors are bit-identical to one thread's.
DEFAULT_THREADS = min(2, os.cpu_count() or 1)


def backend_name(name: str | None = None) -> str:
    """The chosen embedder: `name`, else CONVERSE_EMBEDDER (checked there), else onnx."""
    if not name:
        return local_settings().embedder
    chosen = name.strip().lower()
    if chosen not in BACKENDS:
        raise ProviderError(
            f"CONVERSE_EMBEDDER must be onnx or torch, not {chosen!r}",
            "unset it for the default (onnx)",
        )
    return chosen


def embedder_id_of(backend: str) -> str:
    """The id stored beside each vector the backend makes."""
    if backend == "torch":
        from pipeline.providers.local import sbert

        return sbert.EMBEDDER_ID
    return onnx.EMBEDDER_ID


@dataclass(frozen=True)
class LoadedModel:
    """A loaded embedder: its id, how it encodes, and how long loading took."""

    backend: str
    embedder_id: str
    encode: Callable[[Sequence[str]], Vectors]
    load_s: float


def _threads() -> int:
    return local_threads(DEFAULT_THREADS)


_lock = threading.Lock()


@cache
def _load(backend: str) -> LoadedModel:
    if backend == "torch":
        from pipeline.providers.local import sbert

        torch_model = sbert.load(_threads())
        infer = threading.Lock()  # the fast tokenizer is not safe to share between threads

        def encode_torch(texts: Sequence[str]) -> Vectors:
            with infer:
                return sbert.encode(torch_model, texts)

        return LoadedModel(backend, sbert.EMBEDDER_ID, encode_torch, torch_model.load_s)
    encoder = onnx.OnnxEncoder(onnx.load(_threads()))
    return LoadedModel(backend, onnx.EMBEDDER_ID, encoder.encode, encoder.model.load_s)


def loaded_model(backend: str | None = None) -> LoadedModel:
    """The process-wide model of the chosen embedder, loaded on first use."""
    chosen = backend_name(backend)
    with _lock:
        return _load(chosen)


def is_loaded() -> bool:
    """Whether an embedder has been loaded in this process."""
    return _load.cache_info().currsize > 0


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 as an Embedder: mean-pooled, L2-normalised 384-d vectors."""

    model_name = MODEL_NAME
    dim = DIM

    def __init__(self, backend: str | None = None) -> None:
        self.backend = backend_name(backend)
        self.embedder_id = embedder_id_of(self.backend)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed texts, read past emoji and edge filler; an empty sequence gives an empty
        (0, 384) array."""
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        # "sister Clara lol" and "sister Clara 🙂" mean "sister Clara": the model would place
        # them apart (forget matching and recall compare by these vectors). A text with
        # neither is embedded as given, so stored vectors stay valid.
        return loaded_model(self.backend).encode([without_surface(text) for text in texts])

    @property
    def load_s(self) -> float:
        """Seconds the model took to load (loads it if needed)."""
        return loaded_model(self.backend).load_s
