"""Search over a person's confirmed conversation memories: hybrid, like personal-memory search
(pipeline/memory/search.py): cosine to the narrative's vector, raised by keywords matched in
the narrative and its entities, blended with recency.

The index of one person's memories is kept between calls while the store says nothing
changed (a cheap fingerprint query), so a long-lived process — the MCP server, a chat — pays
for loading and indexing once, not per query.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.conversation_models import Memory
from pipeline.domain import Frozen
from pipeline.memory.embeddings import Embedder, from_bytes
from pipeline.memory.search import MIN_SIMILARITY, MemoryIndex
from pipeline.store import Store
from pipeline.store import memory_vectors as repo
from pipeline.store.memories import memory, memory_row

DEFAULT_LIMIT = 10
_CACHE_SIZE = 64


class MemoryHit(Frozen):
    """A memory found for a query, how it scored, and why it matched."""

    memory: Memory
    similarity: float
    score: float
    reason: str


@dataclass(frozen=True)
class _Indexed:
    fingerprint: tuple[object, ...]
    index: MemoryIndex
    ids: tuple[int, ...]
    destinations: tuple[int, ...]


_cache: OrderedDict[tuple[str, int, str], _Indexed] = OrderedDict()
_lock = threading.Lock()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _build(session: Session, person_id: int, embedder: Embedder) -> _Indexed:
    rows = repo.searchable(session, person_id, embedder.model_name)
    vectors = np.zeros((len(rows), embedder.dim), dtype=np.float32)
    missing: list[int] = []
    for i, row in enumerate(rows):
        current = (
            row.vector is not None
            and row.dim == embedder.dim
            and row.content_sha256 == _sha(row.narrative)
        )
        if current and row.vector is not None and row.dim is not None:
            vectors[i] = from_bytes(row.vector, row.dim)
        else:
            missing.append(i)
    if missing:  # not yet embedded (or edited since): embedded here, stored by the review
        vectors[missing] = embedder.embed([rows[i].narrative for i in missing])
    index = MemoryIndex(
        vectors,
        [r.created_at for r in rows],
        [f"{r.narrative} {r.entity_text}" for r in rows],
    )
    return _Indexed(
        fingerprint=(),
        index=index,
        ids=tuple(r.memory_id for r in rows),
        destinations=tuple(r.destination_id for r in rows),
    )


def _indexed(store: Store, session: Session, person_id: int, embedder: Embedder) -> _Indexed:
    key = (str(store.engine.url), person_id, embedder.model_name)
    mark = repo.fingerprint(session, person_id, embedder.model_name)
    with _lock:
        found = _cache.get(key)
        if found is not None and found.fingerprint == mark:
            _cache.move_to_end(key)
            return found
    built = _build(session, person_id, embedder)
    built = _Indexed(mark, built.index, built.ids, built.destinations)
    with _lock:
        _cache[key] = built
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return built


def search_memories(
    store: Store,
    person_id: int,
    query: str,
    embedder: Embedder,
    *,
    destination: str | None = None,
    limit: int = DEFAULT_LIMIT,
    min_similarity: float = MIN_SIMILARITY,
    now: datetime | None = None,
) -> list[MemoryHit]:
    """The person's confirmed memories best matching `query` (of one destination when named:
    a project's name or "Your Story"), best first."""
    if not query.strip() or limit <= 0:
        return []
    with store.read() as session:
        wanted = (
            repo.destination_id_named(session, person_id, destination) if destination else None
        )
        if destination and wanted is None:
            return []
        indexed = _indexed(store, session, person_id, embedder)
        if not indexed.ids:
            return []
        vector = embedder.embed([query])[0]
        keyword = indexed.index.keyword_fraction(query)
        # Filter after scoring: every row is scored at once; a destination keeps its own.
        top = indexed.index.top(query, vector, now or utcnow(), len(indexed.ids), min_similarity)
        hits: list[MemoryHit] = []
        for row, similarity, score in top:
            if wanted is not None and indexed.destinations[row] != wanted:
                continue
            found = memory(session, memory_row(session, person_id, indexed.ids[row]))
            hits.append(
                MemoryHit(
                    memory=found,
                    similarity=round(similarity, 4),
                    score=round(score, 4),
                    reason=_reason(float(keyword[row]), similarity),
                )
            )
            if len(hits) == limit:
                break
        return hits


def _reason(keyword: float, similarity: float) -> str:
    if keyword > 0:
        return f"{keyword:.0%} of the query's keywords, similarity {similarity:.2f}"
    return f"similar in meaning (similarity {similarity:.2f})"
