"""Claims of background jobs and the consolidation job's pair fingerprints (migration 0014).

A claim is an INSERT of (job, person, day) that does nothing when the row exists: the unique
constraint decides, inside the database, which of several workers started at once runs the
job, so no two do, on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.store.tables import FingerprintRow, JobRunRow

CLAIMED = "claimed"
DONE = "done"
FAILED = "failed"


def _insert(session: Session, table: Any) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def claim(session: Session, job: str, person_id: int, day: str, now: datetime) -> int | None:
    """The id of the new run of `job` for the person on `day`, or None when it was claimed
    already (by this or another process). Commit before running the job, so others see it."""
    statement = (
        _insert(session, JobRunRow)
        .values(job=job, person_id=person_id, day=day, claimed_at=now, status=CLAIMED, counts={})
        .on_conflict_do_nothing(index_elements=["job", "person_id", "day"])
        .returning(JobRunRow.id)
    )
    return session.execute(statement).scalar_one_or_none()


def finish(
    session: Session, run_id: int, status: str, counts: dict[str, Any], now: datetime
) -> None:
    """Record how the run ended and what it did."""
    session.execute(
        update(JobRunRow)
        .where(JobRunRow.id == run_id)
        .values(status=status, counts=counts, finished_at=now)
    )


def last_claimed(session: Session, job: str, person_id: int) -> datetime | None:
    """When the person's newest run of `job` was claimed, or None."""
    found = session.scalar(
        select(JobRunRow.claimed_at)
        .where(JobRunRow.job == job, JobRunRow.person_id == person_id)
        .order_by(JobRunRow.claimed_at.desc())
        .limit(1)
    )
    return as_utc(found) if found is not None else None


@dataclass(frozen=True)
class JobRun:
    """A stored run, as the worker's tests and reports read it."""

    job: str
    person_id: int
    day: str
    status: str
    counts: dict[str, Any]


def runs_of(session: Session, person_id: int) -> list[JobRun]:
    """Every run for the person, oldest first."""
    rows = session.scalars(
        select(JobRunRow).where(JobRunRow.person_id == person_id).order_by(JobRunRow.id)
    )
    return [JobRun(r.job, r.person_id, r.day, r.status, dict(r.counts or {})) for r in rows]


def pair_hash(id_a: int, id_b: int, score: float) -> str:
    """The fingerprint of a compared pair: both ids (in order) and the score to 2 places, so a
    pair whose text changed enough to move the score is compared again."""
    low, high = sorted((id_a, id_b))
    return hashlib.sha256(f"{low}:{high}:{round(score, 2):.2f}".encode()).hexdigest()


def fresh_fingerprints(session: Session, hashes: Sequence[str], since: datetime) -> set[str]:
    """Those of `hashes` checked at or after `since`."""
    if not hashes:
        return set()
    return set(
        session.scalars(
            select(FingerprintRow.pair_hash).where(
                FingerprintRow.pair_hash.in_(list(hashes)), FingerprintRow.checked_at >= since
            )
        )
    )


def remember_fingerprints(
    session: Session, person_id: int, verdicts: Iterable[tuple[str, str]], now: datetime
) -> None:
    """Store (hash, verdict) pairs checked now; a pair checked before is updated."""
    for digest, verdict in verdicts:
        statement = _insert(session, FingerprintRow).values(
            pair_hash=digest, person_id=person_id, checked_at=now, verdict=verdict
        )
        session.execute(
            statement.on_conflict_do_update(
                index_elements=["pair_hash"],
                set_={"checked_at": now, "verdict": verdict},
            )
        )
