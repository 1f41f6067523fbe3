"""Search at scale: approximate nearest-neighbour indexes kept in step with the store.

An engagement with at least CONVERSE_ANN_MIN_VECTORS searchable facts is searched through
its index (pipeline/store/ann.py): the index proposes the CONVERSE_ANN_CANDIDATES nearest
vectors, and search_memory scores those exactly, as it scores every row of a smaller
engagement. Before each search the index replays the vector change log from the position it
records: facts added, edited, retracted, restored, soft-deleted or erased since then are
added, replaced or removed, and missing or stale vectors among them are embedded and stored.
A missing index, or one made by another embedder, is built from the store.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy.orm import Session

from pipeline.memory.embeddings import Embedder, Vectors, embedder_id
from pipeline.memory.vectors import complete
from pipeline.store import ann
from pipeline.store import embeddings as repo
from pipeline.store.ann import AnnSettings, VectorIndex

# Rows embedded and added per step of a build, so a cold build never holds every text at once.
BUILD_BATCH = 4_096
# Added or replaced entries are written to the file at least this often; removals at once.
SAVE_EVERY = 1_000
# Engagements counted below the threshold, with the change-log position then: not recounted
# until something changes.
_SMALL: dict[tuple[str, int, int], int] = {}


def indexed_engagements(
    session: Session,
    engagement_ids: Sequence[int],
    embedder: Embedder,
    min_vectors: int | None = None,
) -> dict[int, VectorIndex]:
    """The engagements among these that are searched through an index, each index up to date.

    `min_vectors` replaces CONVERSE_ANN_MIN_VECTORS for this caller (relations link through
    the index from fewer facts than search does). Empty when the index library is not
    installed: every search is then exact.
    """
    if not engagement_ids or not ann.available():
        return {}
    with ann.LOCK:
        return _indexed(session, engagement_ids, embedder, min_vectors)


def _indexed(
    session: Session,
    engagement_ids: Sequence[int],
    embedder: Embedder,
    min_vectors: int | None = None,
) -> dict[int, VectorIndex]:
    settings = ann.ann_settings()
    threshold = settings.min_vectors if min_vectors is None else min_vectors
    newest = repo.last_change(session)
    out: dict[int, VectorIndex] = {}
    for engagement_id in engagement_ids:
        small = (ann.store_key(session), engagement_id, threshold)
        if _SMALL.get(small) == newest:
            continue  # counted below the threshold, and nothing has changed since
        index = ann.cached(session, engagement_id, embedder.model_name)
        if index is not None and not _usable(index, embedder, settings, newest):
            index = None
        if index is None:
            if repo.count_searchable(session, engagement_id) < threshold:
                _SMALL[small] = newest
                continue
            index = build(session, engagement_id, embedder, settings)
        else:
            sync(session, index, embedder)
        if len(index) >= threshold:
            out[engagement_id] = index
    return out


def _usable(index: VectorIndex, embedder: Embedder, settings: AnnSettings, newest: int) -> bool:
    """Same embedder and storage type, and a change log that has not been reset since."""
    return (
        index.embedder == embedder_id(embedder)
        and index.dim == embedder.dim
        and index.dtype == settings.dtype
        and index.seq <= newest
    )


def build(
    session: Session, engagement_id: int, embedder: Embedder, settings: AnnSettings
) -> VectorIndex:
    """A new index of every searchable fact of this engagement, saved and kept open."""
    index = VectorIndex(
        engagement_id=engagement_id,
        model=embedder.model_name,
        embedder=embedder_id(embedder),
        dim=embedder.dim,
        dtype=settings.dtype,
        seq=repo.last_change(session),
        path=ann.index_path(session, engagement_id, embedder.model_name),
    )
    rows = repo.embedded_assertions(session, [engagement_id], embedder.model_name)
    for start in range(0, len(rows), BUILD_BATCH):
        batch = rows[start : start + BUILD_BATCH]
        stored = {r.assertion_id: r.stored for r in batch if r.stored is not None}
        vectors = complete(session, [(r.assertion_id, r.content) for r in batch], stored, embedder)
        index.index.add(np.array([r.assertion_id for r in batch], dtype=np.uint64), vectors)
    sync(session, index, embedder)  # what changed while building, and the vectors just stored
    index.save()
    ann.remember(session, index)
    return index


def sync(session: Session, index: VectorIndex, embedder: Embedder) -> None:
    """Bring an index up to date with the store by replaying the change log (or, after an
    erasure, by comparing every id with the store)."""
    changed, newest = repo.changed_since(session, index.engagement_id, index.seq)
    if index.verify:
        now = repo.searchable_ids(session, index.engagement_id, embedder.model_name)
        changed |= now ^ index.keys()
    if not changed and not index.verify:
        return
    rows = repo.embedded_by_id(session, sorted(changed), [index.engagement_id], embedder.model_name)
    stored = {r.assertion_id: r.stored for r in rows if r.stored is not None}
    vectors: Vectors = complete(
        session, [(r.assertion_id, r.content) for r in rows], stored, embedder
    )
    kept = [r.assertion_id for r in rows]
    removed = index.remove(changed - set(kept))
    index.upsert(kept, vectors)
    index.seq = max(newest, index.seq)
    index.verify = False
    if removed or index.unsaved >= SAVE_EVERY:
        index.save()


def candidates(indexes: Sequence[VectorIndex], query_vector: Vectors, count: int) -> list[int]:
    """The assertion ids each index finds nearest the query (at most `count` from each)."""
    with ann.LOCK:
        return [found for index in indexes for found in index.search(query_vector, count)]
