"""Memory relations: undirected edges between related personal facts of one person.

A pair is stored once, smaller assertion id first (`from_id < to_id`, a check constraint), so
the unique constraint on (from_id, to_id) dedupes "a relates to b" and "b relates to a", and
two writers racing to link the same pair leave one row: the insert is ON CONFLICT DO NOTHING,
and only the rows it really inserted get a LINK history row. An edge keeps the strength it
was made with. Both ends belong to one engagement, or nothing is linked: the personal
engagement is one person's, so an edge never joins two people. Erasure and purge remove
every edge touching what they remove (`unlink`); a retracted or soft-deleted fact keeps its
edges (a restore brings them back), and every read filters it out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Row, Select, bindparam, delete, func, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from pipeline.clock import as_utc, utcnow
from pipeline.domain import HistoryActor, NormativeForce
from pipeline.errors import InvalidMessage
from pipeline.store.history import record_links
from pipeline.store.tables import AssertionEmbeddingRow, AssertionRow, RelationRow

RELATED_TO = "related_to"
_ENDS = select(AssertionRow.id, AssertionRow.engagement_id, AssertionRow.display_number).where(
    AssertionRow.id.in_(bindparam("ids", expanding=True))
)


@dataclass(frozen=True)
class Edge:
    """An edge seen from one of its ends: `memory_id` relates to `other_id`."""

    memory_id: int
    other_id: int
    strength: float
    relation_type: str
    created_at: datetime


def pair(a: int, b: int) -> tuple[int, int]:
    """The stored order of a pair: smaller id first."""
    return (a, b) if a < b else (b, a)


@lru_cache(maxsize=2)
def _insert(dialect: str) -> Executable:
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(RelationRow).values(
        from_id=bindparam("from_id"),
        to_id=bindparam("to_id"),
        relation_type=bindparam("relation_type"),
        strength=bindparam("strength"),
        created_at=bindparam("at"),
    )
    return statement.on_conflict_do_nothing(
        index_elements=[RelationRow.from_id, RelationRow.to_id]
    ).returning(RelationRow.from_id, RelationRow.to_id)


def link(
    session: Session,
    assertion_id: int,
    neighbours: Sequence[tuple[int, float]],
    *,
    by: HistoryActor,
    at: datetime | None = None,
) -> list[tuple[int, float]]:
    """Relate an assertion to (other id, strength) neighbours, in the caller's transaction.

    Returns the neighbours newly linked, each recorded as a LINK row in the assertion's
    history (one statement for the edges, one for the rows); a pair already linked is left
    as it is. InvalidMessage when a neighbour is the
    assertion itself or lives in another engagement (edges never cross people)."""
    wanted = {other: float(strength) for other, strength in neighbours}
    if not wanted:
        return []
    conn = session.connection()
    ends = conn.execute(_ENDS, {"ids": [assertion_id, *wanted]}).all()
    engagement = {aid: eid for aid, eid, _ in ends}
    number = {aid: n for aid, _, n in ends}
    home = engagement.get(assertion_id)
    if assertion_id in wanted or any(engagement.get(o) != home for o in wanted) or home is None:
        raise InvalidMessage(
            f"cannot relate memory {assertion_id} to {sorted(wanted)}",
            "edges join two different facts of the same person's memory",
        )
    moment = at or utcnow()
    params = [
        {
            "from_id": pair(assertion_id, other)[0],
            "to_id": pair(assertion_id, other)[1],
            "relation_type": RELATED_TO,
            "strength": strength,
            "at": moment,
        }
        for other, strength in wanted.items()
    ]
    # One statement for every pair; a pair linked before (by this write or another) is
    # not returned.
    inserted = {tuple(r) for r in conn.execute(_insert(conn.dialect.name), params)}
    made = [
        (other, strength)
        for other, strength in sorted(wanted.items(), key=lambda kv: (-kv[1], kv[0]))
        if pair(assertion_id, other) in inserted
    ]
    record_links(
        conn,
        assertion_id=assertion_id,
        engagement_id=home,
        display_number=number[assertion_id],
        actor=by,
        links=[(number[other], strength) for other, strength in made],
        at=moment,
    )
    return made


def edges_of(session: Session, assertion_ids: Collection[int]) -> list[Edge]:
    """Every edge touching these assertions, seen from each of them, strongest first (both
    ends of an edge between two of them appear)."""
    ids = sorted(set(assertion_ids))
    if not ids:
        return []
    rows = session.execute(
        select(
            RelationRow.from_id,
            RelationRow.to_id,
            RelationRow.strength,
            RelationRow.relation_type,
            RelationRow.created_at,
        ).where(or_(RelationRow.from_id.in_(ids), RelationRow.to_id.in_(ids)))
    ).all()
    wanted = set(ids)
    edges: list[Edge] = []
    for low, high, strength, kind, created in rows:
        for mine, other in ((low, high), (high, low)):
            if mine in wanted:
                edges.append(Edge(mine, other, float(strength), kind, as_utc(created)))
    edges.sort(key=lambda e: (-e.strength, e.memory_id, e.other_id))
    return edges


def unlink(session: Session, assertion_ids: Collection[int]) -> int:
    """Remove every edge touching these assertions (erasure and purge); returns how many."""
    ids = sorted(set(assertion_ids))
    if not ids:
        return 0
    result = session.execute(
        delete(RelationRow).where(or_(RelationRow.from_id.in_(ids), RelationRow.to_id.in_(ids)))
    )
    return int(getattr(result, "rowcount", 0) or 0)


def count_edges(session: Session) -> int:
    """How many edges the store holds."""
    return int(session.scalar(select(func.count()).select_from(RelationRow)) or 0)


@lru_cache(maxsize=1)
def _committed_vectors() -> Select[*tuple[Any, ...]]:
    """Built once: every link below the index threshold runs it."""
    return (
        select(
            AssertionRow.id,
            AssertionEmbeddingRow.embedder,
            AssertionEmbeddingRow.dim,
            AssertionEmbeddingRow.vector,
        )
        .outerjoin(
            AssertionEmbeddingRow,
            (AssertionEmbeddingRow.assertion_id == AssertionRow.id)
            & (AssertionEmbeddingRow.model == bindparam("model")),
        )
        .where(
            AssertionRow.engagement_id == bindparam("engagement_id"),
            AssertionRow.force == NormativeForce.COMMITTED.value,
            AssertionRow.deleted_at.is_(None),
        )
    )


def committed_vectors(
    session: Session, engagement_id: int, model: str
) -> list[Row[*tuple[Any, ...]]]:
    """(id, embedder, dim, vector) of the engagement's live committed facts, the vector
    columns None when no vector is stored under `model`: plain rows, read without building
    an object per fact (a link below the index threshold reads them all)."""
    params = {"engagement_id": engagement_id, "model": model}
    return list(session.connection().execute(_committed_vectors(), params).all())
