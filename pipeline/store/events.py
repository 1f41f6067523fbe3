"""Operational events: one row per operation on memory, written where the data already is
(a turn's classification, its handler's writes, forget matching and recall; the lifecycle
sweep; memory.query), in the transaction of the operation itself, one INSERT for all of a
transaction's events. `converse stats` counts them by op and node over time.

A row holds ids, names and numbers only, never a person's words, so erasure has nothing to
remove here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from sqlalchemy import ColumnElement, func, insert, literal_column, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import EventRow

_FIELDS = (
    "person_id",
    "conversation",
    "node",
    "op",
    "status",
    "memory_id",
    "category",
    "similarity",
    "created_at",
    "latency_ms",
)
_INSERT = HotStatement(insert(EventRow), column_keys=_FIELDS)


class Node(StrEnum):
    """Where an operation ran."""

    HOTPATH = "hotpath"  # a conversation turn
    WORKER = "worker"  # a background job (the lifecycle sweep)
    TOOL = "tool"  # memory.query


@dataclass(frozen=True)
class Event:
    """One operation: what (`op`), how it went (`status`), on which memory."""

    node: Node
    op: str
    status: str = "ok"
    person_id: int | None = None
    conversation: str | None = None
    memory_id: int | None = None
    category: str | None = None
    similarity: float | None = None
    latency_ms: float | None = None  # for the operations that are timed (on-demand recall)


def conversation_key(engagement_id: int | None) -> str:
    """The name of a person's conversation: in a project, or outside any."""
    return f"project:{engagement_id}" if engagement_id is not None else "general"


def record_events(
    session: Session | Connection, events: Sequence[Event], at: datetime | None = None
) -> None:
    """Append events in the caller's transaction, in one statement."""
    if not events:
        return
    moment = at or utcnow()
    # On the driver's cursor: the ORM's bulk path, or Core's, costs more than the insert
    # (every turn runs it).
    _INSERT.execute(
        session,
        [
            {
                "person_id": e.person_id,
                "conversation": e.conversation,
                "node": e.node.value,
                "op": e.op,
                "status": e.status,
                "memory_id": e.memory_id,
                "category": e.category,
                "similarity": None if e.similarity is None else round(e.similarity, 4),
                "created_at": moment,
                "latency_ms": None if e.latency_ms is None else round(e.latency_ms, 3),
            }
            for e in events
        ],
    )


@dataclass(frozen=True)
class Count:
    """How many events of one kind fell in one period (`bucket`, UTC)."""

    bucket: str
    node: str
    op: str
    status: str
    count: int


Period = Literal["day", "hour"]


def _bucket(session: Session, by: Period) -> ColumnElement[Any]:
    if session.get_bind().dialect.name == "postgresql":
        utc = func.timezone("UTC", EventRow.created_at)
        pattern = "YYYY-MM-DD" if by == "day" else 'YYYY-MM-DD"T"HH24":00"'
        return func.to_char(func.date_trunc(by, utc), pattern)
    # SQLite keeps the UTC time as text: 'YYYY-MM-DD HH:MM:SS...'.
    return func.strftime("%Y-%m-%d" if by == "day" else "%Y-%m-%dT%H:00", EventRow.created_at)


def event_counts(
    session: Session, *, person_id: int | None = None, since: datetime | None = None, by: Period
) -> list[Count]:
    """Counts by period, node, op and status, oldest period first; counted by the database."""
    bucket = _bucket(session, by).label("bucket")
    query = select(
        bucket, EventRow.node, EventRow.op, EventRow.status, func.count().label("n")
    ).group_by(literal_column("bucket"), EventRow.node, EventRow.op, EventRow.status)
    if person_id is not None:
        query = query.where(EventRow.person_id == person_id)
    if since is not None:
        query = query.where(EventRow.created_at >= since)
    query = query.order_by(literal_column("bucket"), EventRow.node, EventRow.op, EventRow.status)
    return [
        Count(str(b), node, op, status, int(n)) for b, node, op, status, n in session.execute(query)
    ]


@dataclass(frozen=True)
class RecallRate:
    """How often on-demand recall fired: firings over classified turns, what they found, and
    their latency (median and 95th percentile, ms; None before any firing)."""

    classified: int
    fired: int
    found: int
    median_ms: float | None
    p95_ms: float | None

    @property
    def rate(self) -> float | None:
        """Firings per classified turn (None before any turn)."""
        return self.fired / self.classified if self.classified else None


def recall_rate(
    session: Session, *, person_id: int | None = None, since: datetime | None = None
) -> RecallRate:
    """On-demand recall's firing rate and latency (node hotpath, op recall)."""
    query = select(EventRow.op, EventRow.status, EventRow.latency_ms).where(
        EventRow.node == Node.HOTPATH.value, EventRow.op.in_(("classify", "recall"))
    )
    if person_id is not None:
        query = query.where(EventRow.person_id == person_id)
    if since is not None:
        query = query.where(EventRow.created_at >= since)
    classified = fired = found = 0
    latencies: list[float] = []
    for op, status, latency in session.execute(query):
        if op == "classify":
            classified += 1
            continue
        fired += 1
        found += status == "ok"
        if latency is not None:
            latencies.append(float(latency))
    latencies.sort()
    return RecallRate(
        classified,
        fired,
        found,
        round(_quantile(latencies, 0.5), 2) if latencies else None,
        round(_quantile(latencies, 0.95), 2) if latencies else None,
    )


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks of a sorted list."""
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)
