"""The Embedder protocol and the vector helpers semantic matching needs.

An embedder turns texts into unit-length float32 rows, so a dot product is a cosine
similarity. The local provider supplies the implementation (all-MiniLM-L6-v2); memory code
only depends on this protocol, so the dependency direction stays memory <- providers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, one row per text."""

    @property
    def model_name(self) -> str:
        """Names the model; stored beside each vector, so vectors of models never mix."""
        ...

    @property
    def dim(self) -> int:
        """Length of each vector."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """An array of shape (len(texts), dim), each row of unit length."""
        ...


def embedder_id(embedder: Embedder) -> str:
    """Which embedder made a vector: its `embedder_id` if it has one, else its model name.

    Stored beside each vector: the same model run another way (int8 ONNX, torch) gives
    slightly different vectors, which are recomputed rather than mixed.
    """
    return str(getattr(embedder, "embedder_id", "") or embedder.model_name)


def normalized(vectors: npt.ArrayLike) -> Vectors:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    array = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (array / norms).astype(np.float32, copy=False)
    return out


def to_bytes(vector: npt.ArrayLike) -> bytes:
    """A vector as little-endian float32 bytes, the stored form."""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_bytes(data: bytes, dim: int) -> Vectors:
    """The stored form back as a float32 vector; a length mismatch is an error."""
    vector = np.frombuffer(data, dtype="<f4")
    if vector.shape[0] != dim:
        raise ValueError(f"stored vector has {vector.shape[0]} values, expected {dim}")
    return vector.astype(np.float32)
