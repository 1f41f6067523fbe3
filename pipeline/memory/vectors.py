"""Which stored vectors can be used, and computing the ones that cannot, in one batch."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from sqlalchemy.orm import Session

from pipeline.memory.embeddings import Embedder, Vectors, embedder_id, from_bytes, to_bytes
from pipeline.store import embeddings as repo
from pipeline.store.embeddings import StoredVector


def content_sha256(content: str) -> str:
    """The hash stored beside a vector: a changed content means a stale vector."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def is_current(stored: StoredVector | None, content: str, embedder: Embedder) -> bool:
    """Whether a stored vector can be used: same embedder, same length, same content."""
    return (
        stored is not None
        and stored.embedder == embedder_id(embedder)
        and stored.dim == embedder.dim
        and stored.content_sha256 == content_sha256(content)
    )


def stored_vectors(
    embedder: Embedder, items: Sequence[tuple[int, str]], vectors: Vectors
) -> list[StoredVector]:
    """Freshly computed vectors of (assertion id, content) pairs in their stored form."""
    made_by = embedder_id(embedder)
    return [
        StoredVector(aid, embedder.dim, content_sha256(content), to_bytes(vec), made_by)
        for (aid, content), vec in zip(items, vectors, strict=True)
    ]


def complete(
    session: Session,
    items: Sequence[tuple[int, str]],
    stored: dict[int, StoredVector],
    embedder: Embedder,
) -> Vectors:
    """Vectors of (assertion id, content) pairs, in order: the stored ones that are current,
    the others embedded in one batch and stored. A read session stores nothing: a turn's
    decision hands them to its writes (pipeline/intents/writes.py), which the turn's write
    transaction stores; any other read just computes them again next time."""
    matrix = np.zeros((len(items), embedder.dim), dtype=np.float32)
    missing: list[int] = []
    for row, (aid, content) in enumerate(items):
        found = stored.get(aid)
        if found is not None and is_current(found, content, embedder):
            matrix[row] = from_bytes(found.vector, found.dim)
        else:
            missing.append(row)
    if missing:
        fresh = embedder.embed([items[row][1] for row in missing])
        matrix[missing] = fresh
        fresh_items = [items[row] for row in missing]
        computed = stored_vectors(embedder, fresh_items, fresh)
        if not session.info.get("read_only"):
            repo.save_vectors(session, embedder.model_name, computed)
        elif isinstance(unsaved := session.info.get("unsaved_vectors"), list):
            unsaved.append((embedder.model_name, computed))  # a decision's: the turn stores them
    return matrix
