"""Search over a person's confirmed conversation memories: hybrid, like personal-memory search
(pipeline/memory/search.py): cosine to the narrative's vector, raised by keywords matched in
the narrative and its entities, blended with recency; and the open threads a message touches,
by keywords.

One person's memories and open threads are indexed once and kept between calls while the
store says nothing changed (one cheap fingerprint query), so a long-lived process — the MCP
server, a chat — pays for loading and indexing once, not per message.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Collection
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
class Ranked:
    """A memory's place in a search, without loading the memory."""

    memory_id: int
    narrative: str
    similarity: float
    score: float
    reason: str


@dataclass(frozen=True)
class Thread:
    """An open thread (entity id, the memory holding it, kind, text) and its keyword share."""

    entity_id: int
    memory_id: int
    kind: str
    text: str
    keyword: float


@dataclass(frozen=True)
class Snapshot:
    """One person's searchable memories and open threads, indexed, as of `fingerprint`."""

    fingerprint: tuple[object, ...]
    index: MemoryIndex
    ids: tuple[int, ...]
    narratives: tuple[str, ...]
    destinations: tuple[int, ...]
    threads: tuple[repo.OpenThread, ...]
    thread_index: MemoryIndex


_cache: OrderedDict[tuple[str, int, str, frozenset[str]], Snapshot] = OrderedDict()
_lock = threading.Lock()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _keywords_only(texts: list[str], stop_words: frozenset[str]) -> MemoryIndex:
    """An index used for its keyword postings alone (no vectors)."""
    now = utcnow()
    vectors = np.zeros((len(texts), 1), dtype=np.float32)
    return MemoryIndex(vectors, [now] * len(texts), texts, stop_words)


def _build(
    session: Session,
    person_id: int,
    embedder: Embedder,
    mark: tuple[object, ...],
    stop_words: frozenset[str],
) -> Snapshot:
    rows = repo.searchable(session, person_id, embedder.model_name)
    vectors = np.zeros((len(rows), embedder.dim), dtype=np.float32)
    missing: list[int] = []
    for i, row in enumerate(rows):
        current = row.dim == embedder.dim and row.content_sha256 == _sha(row.narrative)
        if row.vector is not None and row.dim is not None and current:
            vectors[i] = from_bytes(row.vector, row.dim)
        else:
            missing.append(i)
    if missing:  # not yet embedded (or edited since): embedded here, stored by the review
        vectors[missing] = embedder.embed([rows[i].narrative for i in missing])
    threads = tuple(repo.open_threads(session, person_id))
    return Snapshot(
        fingerprint=mark,
        index=MemoryIndex(
            vectors,
            [r.created_at for r in rows],
            [f"{r.narrative} {r.entity_text}" for r in rows],
            stop_words,
        ),
        ids=tuple(r.memory_id for r in rows),
        narratives=tuple(r.narrative for r in rows),
        destinations=tuple(r.destination_id for r in rows),
        threads=threads,
        thread_index=_keywords_only([t.text for t in threads], stop_words),
    )


def snapshot(
    store: Store, person_id: int, embedder: Embedder, stop_words: Collection[str] = ()
) -> Snapshot:
    """The person's index, rebuilt only when the store changed since it was built.
    `stop_words`: the query words its keyword share skips (a lent lexicon's,
    pipeline/lexicon.py); none given, every word counts."""
    with store.read() as session:
        return _indexed(store, session, person_id, embedder, frozenset(stop_words))


def _indexed(
    store: Store,
    session: Session,
    person_id: int,
    embedder: Embedder,
    stop_words: frozenset[str] = frozenset(),
) -> Snapshot:
    key = (str(store.engine.url), person_id, embedder.model_name, stop_words)
    mark = repo.fingerprint(session, person_id, embedder.model_name)
    with _lock:
        found = _cache.get(key)
        if found is not None and found.fingerprint == mark:
            _cache.move_to_end(key)
            return found
    built = _build(session, person_id, embedder, mark, stop_words)
    with _lock:
        _cache[key] = built
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return built


def rank(
    store: Store,
    person_id: int,
    query: str,
    embedder: Embedder,
    *,
    destination: str | None = None,
    limit: int = DEFAULT_LIMIT,
    min_similarity: float = MIN_SIMILARITY,
    now: datetime | None = None,
    indexed: Snapshot | None = None,
) -> list[Ranked]:
    """The person's confirmed memories best matching `query` (of one destination when named:
    a project's name or "Your Story"), best first, as ids, narratives and scores."""
    if not query.strip() or limit <= 0:
        return []
    with store.read() as session:
        wanted = repo.destination_id_named(session, person_id, destination) if destination else None
        if destination and wanted is None:
            return []
        if indexed is None:
            indexed = _indexed(store, session, person_id, embedder)
    if not indexed.ids:
        return []
    vector = embedder.embed([query])[0]
    keyword = indexed.index.keyword_fraction(query)
    top = indexed.index.top(query, vector, now or utcnow(), len(indexed.ids), min_similarity)
    found: list[Ranked] = []
    for row, similarity, score in top:
        if wanted is not None and indexed.destinations[row] != wanted:
            continue
        found.append(
            Ranked(
                memory_id=indexed.ids[row],
                narrative=indexed.narratives[row],
                similarity=round(similarity, 4),
                score=round(score, 4),
                reason=_reason(float(keyword[row]), similarity),
            )
        )
        if len(found) == limit:
            break
    return found


def touched_threads(indexed: Snapshot, message: str, limit: int) -> list[Thread]:
    """Open threads sharing keywords with the message, most shared first."""
    if not indexed.threads or limit <= 0:
        return []
    share = indexed.thread_index.keyword_fraction(message)
    picked = [int(i) for i in np.argsort(-share, kind="stable")[:limit] if share[i] > 0]
    return [
        Thread(
            entity_id=indexed.threads[i].entity_id,
            memory_id=indexed.threads[i].memory_id,
            kind=indexed.threads[i].kind,
            text=indexed.threads[i].text,
            keyword=round(float(share[i]), 4),
        )
        for i in picked
    ]


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
    """`rank`, with each memory loaded whole (destination, entities, deltas)."""
    ranked = rank(
        store,
        person_id,
        query,
        embedder,
        destination=destination,
        limit=limit,
        min_similarity=min_similarity,
        now=now,
    )
    with store.read() as session:
        return [
            MemoryHit(
                memory=memory(session, memory_row(session, person_id, r.memory_id)),
                similarity=r.similarity,
                score=r.score,
                reason=r.reason,
            )
            for r in ranked
        ]


def _reason(keyword: float, similarity: float) -> str:
    if keyword > 0:
        return f"{keyword:.0%} of the query's keywords, similarity {similarity:.2f}"
    return f"similar in meaning (similarity {similarity:.2f})"
