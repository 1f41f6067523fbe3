"""The assertion lifecycle: unused, unimportant, unpinned assertions are set aside (soft
deleted) and purged for good 30 days later (docs/memory.md, "Lifecycle").

`sweep` is what `converse worker run-once` runs. It is safe to run from cron and from several
processes at once: on PostgreSQL a transaction-level advisory lock lets one sweep run at a
time, on SQLite the write transaction (BEGIN IMMEDIATE) does; and every change is made by a
statement whose WHERE clause repeats the rule (`deleted_at IS NULL`, the cut-off dates), so a
sweep that runs right after another finds nothing left to do and writes no second history row.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.domain import HistoryActor, HistoryOp
from pipeline.errors import InvalidMessage
from pipeline.store.erasure import erase_assertions
from pipeline.store.history import record
from pipeline.store.tables import AssertionRow

UNUSED_DAYS = 60
PURGE_AFTER_DAYS = 30
# Importance below this (and unused, and not pinned) lets the sweep set an assertion aside.
# Below DEFAULT_IMPORTANCE (0.5), so an assertion nobody rated is kept however long unused.
DEFAULT_IMPORTANCE_THRESHOLD = 0.3
THRESHOLD_ENV = "CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD"
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
    raw = os.environ.get(THRESHOLD_ENV)
    if raw is None or not raw.strip():
        return Policy()
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise InvalidMessage(
            f"{THRESHOLD_ENV} is {raw!r}, not a number from 0 to 1",
            f"set it to e.g. {DEFAULT_IMPORTANCE_THRESHOLD}, or unset it for the default",
        )
    return Policy(importance_below=value)


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
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
    purged = _purge(session, now - policy.purge_after)
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
            )
            .execution_options(synchronize_session=False)
        ).all()
        for aid, engagement_id, number, accessed, importance in sorted(rows):
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


def _purge(session: Session, cutoff: datetime) -> tuple[int, ...]:
    """Erase, exactly as an erasure on request (turns, embeddings, history text), every
    assertion soft-deleted before `cutoff`."""
    ids = tuple(
        session.scalars(
            select(AssertionRow.id)
            .where(AssertionRow.deleted_at.is_not(None), AssertionRow.deleted_at < cutoff)
            .order_by(AssertionRow.id)
        )
    )
    if ids:
        erase_assertions(session, ids, actor=HistoryActor.SYSTEM, reason="purged")
    return ids
