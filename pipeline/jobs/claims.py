"""A job's run for one person and day, claimed before it starts and marked failed if it
raises, so a crash is visible on the run row and no other worker repeats the day's pass."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from pipeline.clock import utcnow
from pipeline.store import Store
from pipeline.store.job_runs import FAILED, claim, finish


@contextmanager
def claimed(store: Store, job: str, person_id: int, now: datetime) -> Iterator[int | None]:
    """The run's id, or None when another worker (or an earlier run today) has it."""
    with store.write() as session:  # committed here, so every other worker sees the claim
        run_id = claim(session, job, person_id, now.date().isoformat(), now)
    try:
        yield run_id
    except Exception as exc:
        if run_id is not None:
            with store.write() as session:
                finish(session, run_id, FAILED, {"error": type(exc).__name__}, utcnow())
        raise
