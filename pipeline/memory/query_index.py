"""memory.query's index of one person's memories, kept between requests.

Indexing a person's memories (reading every row and vector, building keyword postings) costs
far more than ranking them, so it is done once and kept while the store says nothing the
ranking reads has changed: the vector change log (migration 0010) gets a row whenever an
assertion is added, edited, moved, retracted or restored, soft-deleted, erased, or its vector
stored or dropped, so the newest sequence number among the person's engagements is the
index's fingerprint (one indexed query per request). The request's filters are not the
index's business: the store answers them in SQL (pipeline/store/filtered.py, allowlists
included) with ids in its own order, and only those rows are ranked, exactly as ranking them
afresh would (same vectors, same keyword rule, same recency, ties in the store's order).

Indexes live per database engine (so two in-memory stores never share one) and per person,
the least recently used dropped beyond _PER_ENGINE.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from pipeline.memory.embeddings import Embedder, Vectors, embedder_id
from pipeline.memory.search import MemoryIndex
from pipeline.memory.vectors import complete, is_current
from pipeline.store import embeddings as repo
from pipeline.store.tables import EngagementRow, VectorChangeRow

_PER_ENGINE = 16


@dataclass(frozen=True)
class PersonIndex:
    """One person's live memories (held and committed, every engagement), indexed."""

    fingerprint: int
    index: MemoryIndex
    ids: npt.NDArray[np.int64]  # the assertion id of each row of `index`, ascending

    def top(
        self,
        ids: Sequence[int],
        query: str,
        query_vector: Vectors,
        now: datetime,
        threshold: float,
    ) -> list[tuple[int, float, float]] | None:
        """(assertion id, similarity, final) of the rows of `ids` at or over the threshold,
        best final first, ties in the order of `ids`; None when an id is not indexed."""
        if not ids:
            return []
        if len(self.ids) == 0:
            return None
        wanted = np.array(ids, dtype=np.int64)
        rows = np.minimum(np.searchsorted(self.ids, wanted), len(self.ids) - 1)
        if not np.array_equal(self.ids[rows], wanted):
            return None
        similarity = self.index.similarity_of(rows, query, query_vector)
        eligible = np.flatnonzero(similarity >= threshold)
        if eligible.size == 0:
            return []
        final = self.index.final_of(similarity[eligible], now, rows[eligible])
        order = np.argsort(-final, kind="stable")
        return [
            (int(ids[int(eligible[i])]), float(similarity[eligible[i]]), float(final[i]))
            for i in order
        ]


_cache: weakref.WeakKeyDictionary[Engine, OrderedDict[tuple[int, str], PersonIndex]] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def _engagements(session: Session, person_id: int) -> list[int]:
    return list(
        session.scalars(select(EngagementRow.id).where(EngagementRow.owner_person_id == person_id))
    )


def fingerprint(session: Session, person_id: int) -> int:
    """The newest change-log position among the person's engagements (0 when none)."""
    owned = select(EngagementRow.id).where(EngagementRow.owner_person_id == person_id)
    newest = session.scalar(
        select(func.max(VectorChangeRow.seq)).where(VectorChangeRow.engagement_id.in_(owned))
    )
    return int(newest or 0)


def person_index(session: Session, person_id: int, embedder: Embedder) -> PersonIndex:
    """The person's index, built only when the change log moved since it was built."""
    engine = session.get_bind().engine
    key = (person_id, embedder_id(embedder))
    mark = fingerprint(session, person_id)
    with _lock:
        found = _cache.get(engine, OrderedDict()).get(key)
        if found is not None and found.fingerprint == mark:
            _cache[engine].move_to_end(key)
            return found
    built, embedded = _build(session, person_id, embedder, mark)
    # Vectors embedded here are stored in the caller's transaction, which may yet roll back:
    # such an index is used once and not kept (the next request builds from what was stored).
    if not embedded:
        with _lock:
            kept = _cache.setdefault(engine, OrderedDict())
            kept[key] = built
            while len(kept) > _PER_ENGINE:
                kept.popitem(last=False)
    return built


def _build(
    session: Session, person_id: int, embedder: Embedder, mark: int
) -> tuple[PersonIndex, bool]:
    rows = repo.embedded_assertions(session, _engagements(session, person_id), embedder.model_name)
    embedded = any(not is_current(r.stored, r.content, embedder) for r in rows)
    stored = {r.assertion_id: r.stored for r in rows if r.stored is not None}
    vectors = complete(session, [(r.assertion_id, r.content) for r in rows], stored, embedder)
    index = MemoryIndex(vectors, [r.created_at for r in rows], [r.content for r in rows])
    ids = np.array([r.assertion_id for r in rows], dtype=np.int64)  # ascending, as read
    return PersonIndex(fingerprint=mark, index=index, ids=ids), embedded


def forget_indexes() -> None:
    """Drop every kept index (tests that compare a cold build with a warm one)."""
    with _lock:
        _cache.clear()
