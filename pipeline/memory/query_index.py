"""memory.query's index of one person's memories, kept between requests.

Indexing a person's memories (reading every row and vector, building keyword postings) costs
far more than ranking them, so it is done once and kept while the store says nothing the
ranking reads has changed: the vector change log (migration 0010) gets a row whenever an
assertion is added, edited, moved, retracted or restored, soft-deleted, erased, or its vector
stored or dropped, so the newest sequence number among the person's engagements is the
index's fingerprint (one indexed query per request). The request's filters are not the
index's business: the index ranks every memory of the person, and the store is asked, a page
of the best at a time, which of them pass the request's filters (pipeline/store/filtered.py,
allowlists included), until the request has what it needs. What passes comes out in the order
ranking only the filtered rows afresh gives (same vectors, same keyword rule, same recency,
equal scores in the store's order).

Indexes live per database engine (so two in-memory stores never share one) and per person,
the least recently used dropped beyond _PER_ENGINE.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt
from sqlalchemy import Engine, bindparam, func, select
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

    def ranked(self, query: str, query_vector: Vectors, now: datetime, threshold: float) -> Ranking:
        """Every indexed memory at or over the similarity threshold, best final first."""
        if len(self.ids) == 0:
            return Ranking.empty()
        rows = np.arange(len(self.ids))
        similarity = self.index.similarity_of(rows, query, query_vector)
        eligible = np.flatnonzero(similarity >= threshold)
        final = self.index.final_of(similarity[eligible], now, eligible)
        order = np.argsort(-final, kind="stable")
        picked = eligible[order]
        return Ranking(self.ids[picked], similarity[picked], final[order])


@dataclass(frozen=True)
class Ranking:
    """Assertion ids best first, with their similarity and final score."""

    ids: npt.NDArray[np.int64]
    similarity: npt.NDArray[np.float32]
    final: npt.NDArray[np.float32]

    @staticmethod
    def empty() -> Ranking:
        """No memory at all."""
        return Ranking(
            np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32), np.zeros(0, np.float32)
        )

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def page_end(self, start: int, size: int) -> int:
        """Where a page from `start` of about `size` ends: never inside a run of equal scores,
        so a tie is ordered as a whole (by the store's order, as ranking afresh orders it)."""
        end = min(start + size, len(self))
        while end < len(self) and self.final[end] == self.final[end - 1]:
            end += 1
        return end


_cache: weakref.WeakKeyDictionary[Engine, OrderedDict[tuple[int, str], PersonIndex]] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def _engagements(session: Session, person_id: int) -> list[int]:
    return list(
        session.scalars(select(EngagementRow.id).where(EngagementRow.owner_person_id == person_id))
    )


_OWNED = select(EngagementRow.id).where(EngagementRow.owner_person_id == bindparam("person_id"))
_NEWEST = select(func.max(VectorChangeRow.seq)).where(VectorChangeRow.engagement_id.in_(_OWNED))


def fingerprint(session: Session, person_id: int) -> int:
    """The newest change-log position among the person's engagements (0 when none)."""
    newest = session.connection().execute(_NEWEST, {"person_id": person_id}).scalar()
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
