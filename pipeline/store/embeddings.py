"""Stored assertion embeddings: read and write the bytes; what they mean is memory's business."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Select, bindparam, delete, func, insert, select
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.domain import NormativeForce
from pipeline.store.tables import AssertionEmbeddingRow, AssertionRow, VectorChangeRow

# Bound parameters per statement stay well under SQLite's and PostgreSQL's limits.
_CHUNK = 500


@dataclass(frozen=True)
class StoredVector:
    """One stored embedding."""

    assertion_id: int
    dim: int
    content_sha256: str
    vector: bytes
    embedder: str


@dataclass(frozen=True)
class EmbeddedAssertion:
    """An assertion's text and age with its stored vector under one model, if any."""

    assertion_id: int
    engagement_id: int
    display_number: int
    content: str
    force: NormativeForce
    created_at: datetime
    stored: StoredVector | None


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def load_vectors(
    session: Session, assertion_ids: Sequence[int], model: str
) -> dict[int, StoredVector]:
    """Stored vectors of these assertions under `model`, by assertion id (whichever embedder
    made them: the caller compares `embedder`)."""
    found: dict[int, StoredVector] = {}
    for chunk in _chunks(list(assertion_ids)):
        rows = session.execute(
            select(
                AssertionEmbeddingRow.assertion_id,
                AssertionEmbeddingRow.dim,
                AssertionEmbeddingRow.content_sha256,
                AssertionEmbeddingRow.vector,
                AssertionEmbeddingRow.embedder,
            ).where(
                AssertionEmbeddingRow.model == model,
                AssertionEmbeddingRow.assertion_id.in_(chunk),
            )
        )
        for assertion_id, dim, sha, vector, embedder in rows:
            found[assertion_id] = StoredVector(assertion_id, dim, sha, bytes(vector), embedder)
    return found


def save_vectors(session: Session, model: str, vectors: Sequence[StoredVector]) -> int:
    """Store (or replace) vectors under `model`, each stamped with its embedder; returns how
    many were written."""
    if not vectors:
        return 0
    ids = [v.assertion_id for v in vectors]
    for chunk in _chunks(ids):
        session.execute(
            delete(AssertionEmbeddingRow).where(
                AssertionEmbeddingRow.model == model,
                AssertionEmbeddingRow.assertion_id.in_(chunk),
            )
        )
    now = utcnow()
    session.execute(
        insert(AssertionEmbeddingRow),
        [
            {
                "assertion_id": v.assertion_id,
                "model": model,
                "embedder": v.embedder,
                "dim": v.dim,
                "content_sha256": v.content_sha256,
                "vector": v.vector,
                "created_at": now,
            }
            for v in vectors
        ],
    )
    return len(vectors)


def count_vectors(session: Session, model: str | None = None) -> int:
    """How many vectors are stored (under `model`, or all)."""
    query = select(func.count()).select_from(AssertionEmbeddingRow)
    if model is not None:
        query = query.where(AssertionEmbeddingRow.model == model)
    return int(session.scalar(query) or 0)


def embedded_assertions(
    session: Session,
    engagement_ids: Sequence[int],
    model: str,
    forces: Sequence[NormativeForce] = (NormativeForce.HELD, NormativeForce.COMMITTED),
) -> list[EmbeddedAssertion]:
    """Assertions of these engagements with their vectors under `model` (None when missing)."""
    if not engagement_ids:
        return []
    return _embedded(session, engagement_ids, model, forces)


def embedded_by_id(
    session: Session,
    assertion_ids: Sequence[int],
    engagement_ids: Sequence[int],
    model: str,
    forces: Sequence[NormativeForce] = (NormativeForce.HELD, NormativeForce.COMMITTED),
) -> list[EmbeddedAssertion]:
    """Like `embedded_assertions`, for these assertions only; one outside the engagements, of
    another force or soft-deleted is left out (an index's candidates are checked here).

    The rows are read by primary key and filtered here: asked to filter, SQLite walks the
    engagement's whole index instead."""
    engagements = set(engagement_ids)
    wanted = {f.value for f in forces}
    out: list[EmbeddedAssertion] = []
    for chunk in _chunks(sorted(set(assertion_ids))):
        rows = session.connection().execute(_by_id_statement(), {"model": model, "ids": chunk})
        for row in rows:
            if row.engagement_id in engagements and row.force in wanted and row.deleted_at is None:
                out.append(_embedded_row(*tuple(row)[:-1]))
    return out


@lru_cache(maxsize=1)
def _by_id_statement() -> Select[*tuple[Any, ...]]:
    """Built once: a search at scale runs it on every query."""
    return (
        select(*_COLUMNS, AssertionRow.deleted_at)
        .outerjoin(
            AssertionEmbeddingRow,
            (AssertionEmbeddingRow.assertion_id == AssertionRow.id)
            & (AssertionEmbeddingRow.model == bindparam("model")),
        )
        .where(AssertionRow.id.in_(bindparam("ids", expanding=True)))
        .order_by(AssertionRow.id)
    )


_COLUMNS = (
    AssertionRow.id,
    AssertionRow.engagement_id,
    AssertionRow.display_number,
    AssertionRow.content,
    AssertionRow.force,
    AssertionRow.created_at,
    AssertionEmbeddingRow.dim,
    AssertionEmbeddingRow.content_sha256,
    AssertionEmbeddingRow.vector,
    AssertionEmbeddingRow.embedder,
)


def _embedded_row(
    aid: int,
    eid: int,
    number: int,
    content: str,
    force: str,
    created: datetime,
    dim: int | None,
    sha: str | None,
    vector: bytes | None,
    made_by: str | None,
) -> EmbeddedAssertion:
    stored = None
    if vector is not None and dim is not None and sha is not None and made_by is not None:
        stored = StoredVector(aid, dim, sha, bytes(vector), made_by)
    return EmbeddedAssertion(
        aid, eid, number, content, NormativeForce(force), as_utc(created), stored
    )


def _embedded(
    session: Session,
    engagement_ids: Sequence[int],
    model: str,
    forces: Sequence[NormativeForce],
) -> list[EmbeddedAssertion]:
    query = (
        select(*_COLUMNS)
        .outerjoin(
            AssertionEmbeddingRow,
            (AssertionEmbeddingRow.assertion_id == AssertionRow.id)
            & (AssertionEmbeddingRow.model == model),
        )
        .where(
            AssertionRow.engagement_id.in_(list(engagement_ids)),
            AssertionRow.force.in_([f.value for f in forces]),
            AssertionRow.deleted_at.is_(None),  # soft-deleted: never searched
        )
        .order_by(AssertionRow.id)
    )
    return [_embedded_row(*tuple(row)) for row in session.execute(query)]


def count_searchable(
    session: Session,
    engagement_id: int,
    forces: Sequence[NormativeForce] = (NormativeForce.HELD, NormativeForce.COMMITTED),
) -> int:
    """How many assertions of this engagement a search may return (embedded or not)."""
    query = (
        select(func.count())
        .select_from(AssertionRow)
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force.in_([f.value for f in forces]),
            AssertionRow.deleted_at.is_(None),
        )
    )
    return int(session.scalar(query) or 0)


_LAST_CHANGE = select(func.max(VectorChangeRow.seq))
_CHANGED_SINCE = select(VectorChangeRow.assertion_id, VectorChangeRow.seq).where(
    VectorChangeRow.engagement_id == bindparam("engagement_id"),
    VectorChangeRow.seq > bindparam("seq"),
)


def last_change(session: Session) -> int:
    """The newest sequence number of the vector change log (0 when empty)."""
    return int(session.connection().execute(_LAST_CHANGE).scalar() or 0)


def changed_since(session: Session, engagement_id: int, seq: int) -> tuple[set[int], int]:
    """Assertions of this engagement whose vector may have changed after `seq`, and the
    newest sequence number seen (`seq` itself when nothing changed)."""
    rows = (
        session.connection()
        .execute(_CHANGED_SINCE, {"engagement_id": engagement_id, "seq": seq})
        .all()
    )
    return {aid for aid, _ in rows}, max((s for _, s in rows), default=seq)


def searchable_ids(
    session: Session,
    engagement_id: int,
    model: str,
    forces: Sequence[NormativeForce] = (NormativeForce.HELD, NormativeForce.COMMITTED),
) -> set[int]:
    """Ids of this engagement's searchable assertions that have a vector under `model`."""
    query = (
        select(AssertionRow.id)
        .join(
            AssertionEmbeddingRow,
            (AssertionEmbeddingRow.assertion_id == AssertionRow.id)
            & (AssertionEmbeddingRow.model == model),
        )
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force.in_([f.value for f in forces]),
            AssertionRow.deleted_at.is_(None),
        )
    )
    return set(session.scalars(query))
