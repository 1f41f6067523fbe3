"""Relations between a person's personal facts: made when a fact is committed, read when
memory is retrieved (docs/memory.md, "Relations").

Write: when a turn leaves a personal fact committed (a confirmation, a cross-promotion yes,
a restore), it is related to its `top_k` most similar committed facts of the same personal
engagement whose cosine similarity reaches `link_min`, with strength = that similarity.
Candidates come from the engagement's nearest-neighbour index (pipeline/memory/ann_search.py)
from `index_min` facts and from a scan of every stored vector below it; the nearest are
scored exactly. Read: memory.query adds `boost_weight * strength` of the strongest edge to a
top result to each ranked candidate, and up to `related_bullets` related facts that pass the
same filters (pipeline/memory/query.py).

Settings (CONVERSE_RELATIONS_*): `link_min` 0.50 comes from MiniLM's spread over the 149
distinct personal facts of the eval suites (11,026 pairs): the 95th percentile of all pairs
is 0.32 and the 99th 0.52; 1.2% of pairs reach 0.50, and the pairs between 0.50 and 0.55
share a topic (two allergies, two birthdays, two cities lived in), while from 0.45 to 0.50
some share only a sentence's shape (a birthday and an anniversary).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from pipeline.domain import Assertion, HistoryActor, MemoryChange, NormativeForce
from pipeline.memory.ann_search import candidates, indexed_engagements
from pipeline.memory.embeddings import Embedder, Vectors, embedder_id
from pipeline.memory.vectors import complete
from pipeline.settings import checked_settings
from pipeline.store import embeddings as repo
from pipeline.store.embeddings import StoredVector
from pipeline.store.relations import Edge, committed_vectors, edges_of, link
from pipeline.store.rows import ASSERTION_COLUMNS, assertion_from_row
from pipeline.store.tables import AssertionEmbeddingRow, AssertionRow, EngagementRow

# Nearest vectors the index proposes for a link (see `nearest`).
LINK_CANDIDATES = 16


class RelationSettings(BaseSettings):
    """CONVERSE_RELATIONS_* settings (docs/memory.md, "Relations")."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_RELATIONS_", extra="ignore")

    # Neighbours a committed fact is linked to; 0 turns linking off.
    top_k: int = Field(3, ge=0, le=20)
    # The cosine similarity an edge needs (see the module docstring for how 0.50 was chosen).
    link_min: float = Field(0.50, ge=0.0, le=1.0)
    # w_rel: a candidate related to a top result gains this times the edge's strength, about a
    # tenth of the spread between a good and a middling hybrid score.
    boost_weight: float = Field(0.05, ge=0.0, le=1.0)
    # Related facts memory.query may add after its results.
    related_bullets: int = Field(2, ge=0, le=2)
    # From this many searchable facts a link finds its candidates through the engagement's
    # nearest-neighbour index (built on first use, then kept in step like search's); below
    # it by reading every stored vector, which costs about 7 µs a fact on SQLite.
    index_min: int = Field(500, ge=1)


def relation_settings() -> RelationSettings:
    """The CONVERSE_RELATIONS_* settings now in the environment, or a one-line error."""
    return checked_settings(RelationSettings, "CONVERSE_RELATIONS_", "docs/memory.md, 'Relations'")


@dataclass(frozen=True)
class _Fact:
    id: int
    engagement_id: int
    vector: Vectors


@lru_cache(maxsize=1)
def _linkable_statement() -> Select[*tuple[Any, ...]]:
    """Built once: every commit of a personal fact runs it."""
    return (
        select(
            AssertionRow.id,
            AssertionRow.engagement_id,
            AssertionRow.content,
            AssertionEmbeddingRow.dim,
            AssertionEmbeddingRow.content_sha256,
            AssertionEmbeddingRow.vector,
            AssertionEmbeddingRow.embedder,
        )
        .join(EngagementRow, EngagementRow.id == AssertionRow.engagement_id)
        .outerjoin(
            AssertionEmbeddingRow,
            (AssertionEmbeddingRow.assertion_id == AssertionRow.id)
            & (AssertionEmbeddingRow.model == bindparam("model")),
        )
        .where(
            AssertionRow.id == bindparam("id"),
            AssertionRow.force == NormativeForce.COMMITTED.value,
            AssertionRow.deleted_at.is_(None),
            EngagementRow.visibility == "personal",
        )
    )


def _linkable(session: Session, assertion_id: int, embedder: Embedder) -> _Fact | None:
    """The fact and its vector, when it is a live committed fact of a personal engagement
    (its vector computed and stored if missing or stale)."""
    params = {"id": assertion_id, "model": embedder.model_name}
    row = session.connection().execute(_linkable_statement(), params).one_or_none()
    if row is None:
        return None
    aid, engagement_id, content, dim, sha, blob, made_by = row
    stored = {} if blob is None else {aid: StoredVector(aid, dim, sha, bytes(blob), made_by)}
    vector = complete(session, [(aid, content)], stored, embedder)[0]
    return _Fact(aid, engagement_id, vector)


def nearest(
    session: Session,
    fact_id: int,
    engagement_id: int,
    vector: Vectors,
    embedder: Embedder,
    settings: RelationSettings,
) -> list[tuple[int, float]]:
    """The fact's `top_k` most similar committed facts of its engagement at or above
    `link_min`, as (id, similarity), most similar first.

    Candidates come from the engagement's index, or below the index threshold from a scan of
    every stored vector; either way the nearest few are read again and scored exactly (their
    current content's vector, computed and stored if missing or stale), so a candidate that
    is no longer committed or live, or whose vector went stale, cannot make an edge."""
    count = max(LINK_CANDIDATES, 4 * settings.top_k)
    indexed = indexed_engagements(session, [engagement_id], embedder, settings.index_min)
    if engagement_id in indexed:
        found = candidates([indexed[engagement_id]], vector, count)
    else:
        found = _scanned(session, engagement_id, fact_id, vector, embedder, count)
    committed = (NormativeForce.COMMITTED,)
    rows = repo.embedded_by_id(session, found, [engagement_id], embedder.model_name, committed)
    rows = [r for r in rows if r.assertion_id != fact_id]
    if not rows:
        return []
    stored = {r.assertion_id: r.stored for r in rows if r.stored is not None}
    vectors = complete(session, [(r.assertion_id, r.content) for r in rows], stored, embedder)
    similarity = vectors @ np.asarray(vector, dtype=np.float32)
    eligible = np.flatnonzero(similarity >= settings.link_min)
    best = eligible[np.argsort(-similarity[eligible], kind="stable")][: settings.top_k]
    return [(rows[int(i)].assertion_id, float(similarity[int(i)])) for i in best]


def _scanned(
    session: Session,
    engagement_id: int,
    fact_id: int,
    vector: Vectors,
    embedder: Embedder,
    count: int,
) -> list[int]:
    """The `count` other committed facts whose stored vectors are nearest, and every one
    without a vector of this embedder (scored, and so stored, by the caller)."""
    made_by, dim = embedder_id(embedder), embedder.dim
    ids: list[int] = []
    blobs: list[bytes] = []
    unscored: list[int] = []
    for aid, by, size, blob in committed_vectors(session, engagement_id, embedder.model_name):
        if aid == fact_id:
            continue
        if blob is not None and by == made_by and size == dim:
            ids.append(aid)
            blobs.append(blob)
        else:
            unscored.append(aid)
    if len(ids) > count:
        matrix = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), dim)
        similarity = matrix @ np.asarray(vector, dtype=np.float32)
        ids = [ids[int(i)] for i in np.argpartition(-similarity, count)[:count]]
    return ids + unscored


def link_memory(
    session: Session,
    assertion_id: int,
    embedder: Embedder,
    *,
    by: HistoryActor,
    settings: RelationSettings | None = None,
) -> list[tuple[int, float]]:
    """Relate a committed personal fact to its nearest committed facts (see the module
    docstring); returns the edges newly made as (other id, strength). Anything else (a held
    offer, a project note, a retracted or soft-deleted fact) is left unlinked."""
    settings = settings or relation_settings()
    if settings.top_k == 0:
        return []
    fact = _linkable(session, assertion_id, embedder)
    if fact is None:
        return []
    found = nearest(session, fact.id, fact.engagement_id, fact.vector, embedder, settings)
    return link(session, fact.id, found, by=by)


def link_changes(
    session: Session,
    personal_engagement_id: int | None,
    changes: Sequence[MemoryChange],
    embedder: Embedder | None,
    *,
    by: HistoryActor,
) -> int:
    """Link every personal fact a turn left committed (its handler's changes); returns how
    many edges were made. Nothing without an embedder: similarity needs vectors."""
    if embedder is None or personal_engagement_id is None:
        return 0
    numbers = [
        c.display_number
        for c in changes
        if c.engagement_id == personal_engagement_id and c.after is NormativeForce.COMMITTED
    ]
    if not numbers:
        return 0
    ids = session.scalars(
        select(AssertionRow.id).where(
            AssertionRow.engagement_id == personal_engagement_id,
            AssertionRow.display_number.in_(numbers),
        )
    ).all()
    return sum(len(link_memory(session, aid, embedder, by=by)) for aid in ids)


def boosts(session: Session, seeds: Sequence[int], ranked: Collection[int]) -> dict[int, float]:
    """For each ranked id related to a seed other than itself, the strongest such edge."""
    wanted = set(ranked)
    out: dict[int, float] = {}
    for edge in edges_of(session, seeds):
        if edge.other_id in wanted and edge.other_id != edge.memory_id:
            out[edge.other_id] = max(out.get(edge.other_id, 0.0), edge.strength)
    return out


def related_to(
    session: Session, shown: Sequence[int], exclude: Collection[int]
) -> list[tuple[int, int, float]]:
    """(related id, the shown id it relates to, strength) for facts related to the shown ones
    and not excluded, strongest first, each related fact once. The caller still filters them
    (live, allowed): an edge says nothing about whether its far end may be shown."""
    seen = set(exclude)
    out: list[tuple[int, int, float]] = []
    for edge in edges_of(session, shown):
        if edge.other_id in seen:
            continue
        seen.add(edge.other_id)
        out.append((edge.other_id, edge.memory_id, edge.strength))
    return out


@dataclass(frozen=True)
class Related:
    """A live fact related to another, and the edge between them."""

    assertion: Assertion
    edge: Edge


def related_facts(session: Session, assertion_id: int) -> tuple[list[Related], int]:
    """The live (committed, not set aside) facts related to this one, strongest first, and
    how many related facts are hidden (retracted or set aside: they keep their edges, which
    come back with a restore)."""
    edges = edges_of(session, [assertion_id])
    if not edges:
        return [], 0
    columns = tuple(getattr(AssertionRow, name) for name in ASSERTION_COLUMNS)
    rows = session.execute(
        select(*columns).where(
            AssertionRow.id.in_([e.other_id for e in edges]),
            AssertionRow.force == NormativeForce.COMMITTED.value,
            AssertionRow.deleted_at.is_(None),
        )
    ).all()
    live = {a.id: a for a in (assertion_from_row(r) for r in rows)}
    shown = [Related(live[e.other_id], e) for e in edges if e.other_id in live]
    return shown, len(edges) - len(shown)
