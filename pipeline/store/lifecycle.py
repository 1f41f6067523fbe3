"""The assertion lifecycle: unused, unimportant, unpinned assertions are set aside (soft
deleted) and purged for good 30 days later (docs/memory.md, "Lifecycle").

`sweep` is what `converse worker run-once` runs. It is safe to run from cron and from several
processes at once: on PostgreSQL a transaction-level advisory lock lets one sweep run at a
time, on SQLite the write transaction (BEGIN IMMEDIATE) does; and every change is made by a
statement whose WHERE clause repeats the rule (`deleted_at IS NULL`, the cut-off dates), so a
sweep that runs right after another finds nothing left to do and writes no second history row.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.domain import HistoryActor, HistoryOp
from pipeline.settings import Settings, settings
from pipeline.store.engine import exempt_from_timeout
from pipeline.store.erasure import erase_assertions
from pipeline.store.events import Event, Node, record_events
from pipeline.store.history import record
from pipeline.store.tables import AssertionRow, EngagementRow

UNUSED_DAYS = 60
PURGE_AFTER_DAYS = 30
# Importance below this (and unused, and not pinned) lets the sweep set an assertion aside.
# Below DEFAULT_IMPORTANCE (0.5), so an assertion nobody rated is kept however long unused.
# (CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD sets it; pipeline/settings.py checks it)
DEFAULT_IMPORTANCE_THRESHOLD: float = Settings.model_fields[
    "lifecycle_importance_threshold"
].default
# A turn marks the assertions it used at most once this often (pipeline/converse.py), so the
# hot path rewrites no row it does not have to; far finer than UNUSED_DAYS.
ACCESS_RESOLUTION = timedelta(days=1)
_LOCK_KEY = zlib.crc32(b"converse-lifecycle-sweep")


@dataclass(frozen=True)
class Policy:
    """When the sweep sets an assertion aside and when it purges one."""

    unused: timedelta = timedelta(days=UNUSED_DAYS)
    importance_below: float = DEFAULT_IMPORTANCE_THRESHOLD
    purge_after: timedelta = timedelta(days=PURGE_AFTER_DAYS)


def policy_from_env() -> Policy:
    """The policy, with the threshold from CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD if set."""
    return Policy(importance_below=settings().lifecycle_importance_threshold)


@dataclass(frozen=True)
class Swept:
    """What one sweep did: ids set aside and ids purged."""

    soft_deleted: tuple[int, ...]
    purged: tuple[int, ...]


def sweep(session: Session, now: datetime, policy: Policy | None = None) -> Swept:
    """Set aside what the policy says, and purge what was set aside long enough, in the
    caller's write transaction (one TTL or DELETE history row for each, actor `system`)."""
    policy = policy or Policy()
    if session.get_bind().dialect.name == "postgresql":
        exempt_from_timeout(session)  # another sweep may hold the lock for its whole run
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        session.execute(text("SET LOCAL statement_timeout TO DEFAULT"))
    purged = _purge(session, now, now - policy.purge_after)
    stale = (
        select(AssertionRow.id)
        .where(
            AssertionRow.deleted_at.is_(None),
            AssertionRow.pinned.is_(False),
            AssertionRow.importance < policy.importance_below,
            AssertionRow.last_accessed_at < now - policy.unused,
        )
        .order_by(AssertionRow.id)
    )
    ids = list(session.scalars(stale))
    done: list[int] = []
    if ids:
        rows = session.execute(
            update(AssertionRow)
            .where(AssertionRow.id.in_(ids), AssertionRow.deleted_at.is_(None))
            .values(deleted_at=now)
            .returning(
                AssertionRow.id,
                AssertionRow.engagement_id,
                AssertionRow.display_number,
                AssertionRow.last_accessed_at,
                AssertionRow.importance,
                AssertionRow.category,
            )
            .execution_options(synchronize_session=False)
        ).all()
        _record(session, "ttl", [(r[0], r[1], r[5]) for r in rows], now)
        for aid, engagement_id, number, accessed, importance, _ in sorted(rows):
            record(
                session,
                assertion_id=aid,
                engagement_id=engagement_id,
                display_number=number,
                op=HistoryOp.TTL,
                actor=HistoryActor.SYSTEM,
                detail={
                    "last_accessed_at": as_utc(accessed).isoformat(),
                    "importance": importance,
                    "purge_after": (now + policy.purge_after).isoformat(),
                },
                at=now,
            )
            done.append(aid)
    return Swept(tuple(done), purged)


def _purge(session: Session, now: datetime, cutoff: datetime) -> tuple[int, ...]:
    """Erase, exactly as an erasure on request (turns, embeddings, history text), every
    assertion soft-deleted before `cutoff`."""
    rows = session.execute(
        select(AssertionRow.id, AssertionRow.engagement_id, AssertionRow.category)
        .where(AssertionRow.deleted_at.is_not(None), AssertionRow.deleted_at < cutoff)
        .order_by(AssertionRow.id)
    ).all()
    ids = tuple(r[0] for r in rows)
    if ids:
        _record(session, "purge", [(r[0], r[1], r[2]) for r in rows], now)
        erase_assertions(session, ids, actor=HistoryActor.SYSTEM, reason="purged")
    return ids


def _record(session: Session, op: str, done: Sequence[tuple[int, int, str]], now: datetime) -> None:
    """The sweep's operational events: (assertion id, engagement id, category) of each."""
    if not done:
        return
    engagements = sorted({e for _, e, _ in done})
    owners = {
        engagement_id: owner
        for engagement_id, owner in session.execute(
            select(EngagementRow.id, EngagementRow.owner_person_id).where(
                EngagementRow.id.in_(engagements)
            )
        )
    }
    events = [
        Event(Node.WORKER, op, person_id=owners.get(e), memory_id=aid, category=category)
        for aid, e, category in sorted(done)
    ]
    record_events(session, events, now)
