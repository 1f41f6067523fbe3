"""On PostgreSQL a statement that runs past CONVERSE_DB_STATEMENT_TIMEOUT_S is cancelled with a
one-line error, while waiting for another process's turn (the per-person advisory lock) is not."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from pipeline.errors import StoreUnavailable
from pipeline.store import Store, open_store

pytestmark = pytest.mark.postgres


@pytest.fixture
def timed_store(pg_database: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("CONVERSE_DB_STATEMENT_TIMEOUT_S", "1")
    opened = open_store(pg_database)
    yield opened
    opened.dispose()


def test_a_statement_past_the_timeout_is_one_line(timed_store: Store) -> None:
    with pytest.raises(StoreUnavailable) as caught, timed_store.read() as session:
        session.execute(text("SELECT pg_sleep(3)"))
    assert "took too long to answer" in caught.value.one_line()
    assert "\n" not in caught.value.one_line()


def test_waiting_for_another_turn_of_the_person_is_not_cancelled(timed_store: Store) -> None:
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with timed_store.person_lock(7):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    # A second store: another process's connection, waiting on the same advisory lock.
    other = open_store(timed_store.engine.url.render_as_string(hide_password=False))
    acquired: list[float] = []

    def wait() -> None:
        started = time.monotonic()
        with other.person_lock(7):
            acquired.append(time.monotonic() - started)

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(2.5)  # more than twice the statement timeout
    release.set()
    holder.join(10)
    waiter.join(10)
    other.dispose()
    assert len(acquired) == 1 and acquired[0] >= 2.0


def test_a_sweep_waiting_for_another_sweep_is_not_cancelled(timed_store: Store) -> None:
    from pipeline.clock import utcnow
    from pipeline.store.lifecycle import sweep

    release = threading.Event()
    held = threading.Event()

    def hold() -> None:
        with timed_store.write() as session:
            sweep(session, utcnow())
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    done: list[bool] = []

    def second() -> None:
        with timed_store.write() as session:
            sweep(session, utcnow())
            done.append(True)

    waiter = threading.Thread(target=second)
    waiter.start()
    time.sleep(2.5)
    assert done == []  # still waiting, not cancelled
    release.set()
    holder.join(10)
    waiter.join(10)
    assert done == [True]
