"""Relations between a person's personal facts: made when a fact is committed, read when
memory is retrieved (docs/memory.md, "Relations").

Write: when a personal fact is committed (confirmed, restored, or amended while committed),
it is related to its `top_k` most similar committed facts of the same personal engagement
whose cosine similarity reaches `link_min`, with strength = that similarity. Neighbours come
from the engagement's nearest-neighbour index at scale (pipeline/memory/ann_search.py) and
from every committed vector below it. Read: memory.query adds `boost_weight * strength` of
the strongest edge to a top result to each ranked candidate, and up to `related_bullets`
related facts that pass the same filters (pipeline/memory/query.py).

Settings (CONVERSE_RELATIONS_*): `link_min` 0.50 comes from MiniLM's spread over the 149
distinct personal facts of the eval suites (11,026 pairs): the 95th percentile of all pairs
is 0.32 and the 99th 0.52; 1.2% of pairs reach 0.50, and the pairs between 0.50 and 0.55
share a topic (two allergies, two birthdays, two cities lived in), while below 0.45 they
begin not to.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from pipeline.domain import Assertion, HistoryActor, MemoryChange, NormativeForce
from pipeline.errors import InvalidMessage
from pipeline.memory.ann_search import candidates, indexed_engagements
from pipeline.memory.embeddings import Embedder, Vectors, embedder_id
from pipeline.memory.vectors import complete, content_sha256
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


_checked: dict[tuple[str | None, ...], RelationSettings] = {}


def relation_settings() -> RelationSettings:
    """The CONVERSE_RELATIONS_* settings now in the environment, or a one-line error."""
    names = RelationSettings.model_fields
    key = tuple(os.environ.get(f"CONVERSE_RELATIONS_{n.upper()}") for n in names)
    found = _checked.get(key)
    if found is not None:
        return found
    try:
        found = _checked[key] = RelationSettings()
        return found
    except ValidationError as exc:
        first = exc.errors()[0]
        name = f"CONVERSE_RELATIONS_{str(first['loc'][0]).upper()}"
        raise InvalidMessage(
            f"{name}={first.get('input')!r} is not valid: {first['msg'].lower()}",
            f"fix or unset {name} (docs/memory.md, 'Relations')",
        ) from None


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
    `link_min`, as (id, similarity), most similar first."""
    indexed = indexed_engagements(session, [engagement_id], embedder)
    if engagement_id in indexed:
        # The index's nearest few re-scored exactly: enough for top_k, where a search
        # re-scores CONVERSE_ANN_CANDIDATES for a ranking that weighs more than cosine.
        count = max(LINK_CANDIDATES, 4 * settings.top_k)
        found = candidates([indexed[engagement_id]], vector, count)
        committed = (NormativeForce.COMMITTED,)
        rows = repo.embedded_by_id(session, found, [engagement_id], embedder.model_name, committed)
        rows = [r for r in rows if r.assertion_id != fact_id]
        stored = {r.assertion_id: r.stored for r in rows if r.stored is not None}
        ids = [r.assertion_id for r in rows]
        vectors = complete(session, [(r.assertion_id, r.content) for r in rows], stored, embedder)
    else:
        ids, vectors = _every_committed(session, engagement_id, fact_id, embedder)
    if not ids:
        return []
    similarity = vectors @ np.asarray(vector, dtype=np.float32)
    eligible = np.flatnonzero(similarity >= settings.link_min)
    best = eligible[np.argsort(-similarity[eligible], kind="stable")][: settings.top_k]
    return [(ids[int(i)], float(similarity[int(i)])) for i in best]


def _every_committed(
    session: Session, engagement_id: int, fact_id: int, embedder: Embedder
) -> tuple[list[int], Vectors]:
    """The ids and vectors of every other live committed fact of the engagement; vectors that
    are missing or stale (another content or embedder) are computed in one batch and stored."""
    made_by, dim = embedder_id(embedder), embedder.dim
    ids: list[int] = []
    blobs: list[bytes] = []
    missing: list[tuple[int, str]] = []
    for aid, content, sha, by, size, blob in committed_vectors(
        session, engagement_id, model=embedder.model_name
    ):
        if aid == fact_id:
            continue
        if blob is not None and by == made_by and size == dim and sha == content_sha256(content):
            ids.append(aid)
            blobs.append(blob)
        else:
            missing.append((aid, content))
    vectors = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), dim)
    if missing:
        fresh = complete(session, missing, {}, embedder)
        ids += [aid for aid, _ in missing]
        vectors = np.vstack([vectors, fresh])
    return ids, np.asarray(vectors, dtype=np.float32)


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
