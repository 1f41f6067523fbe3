"""Database faults while a command runs: one line naming the cause and what to do, and the
transaction rolled back whole."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import event

from pipeline.domain import ActorKind, NormativeForce
from pipeline.errors import StoreUnavailable
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import create_person, get_person


@pytest.fixture
def store(tmp_path):
    opened = open_store(f"sqlite:///{tmp_path / 'faults.db'}")
    with opened.write() as session:
        create_person(session, "Ana")
    opened.engine.dispose()
    yield opened
    opened.dispose()


def _on_connect(store, *pragmas: str) -> None:
    store.engine.dispose()  # every later connection is a new one, with the pragmas

    @event.listens_for(store.engine, "connect")
    def _after(dbapi_conn, _record):
        for pragma in pragmas:
            dbapi_conn.execute(pragma)


def _add_fact(store, text: str) -> None:
    with store.write() as session:
        engagement = get_person(session, "Ana").personal_engagement_id
        repo.add_assertion(session, engagement, text, ActorKind.OPERATOR, NormativeForce.HELD)


def _facts(store) -> int:
    with store.read() as session:
        engagement = get_person(session, "Ana").personal_engagement_id
        return len(repo.list_assertions(session, engagement))


def test_a_full_disk_is_one_line_and_stores_nothing(store):
    _add_fact(store, "kept before the disk filled")
    with sqlite3.connect(store.engine.url.database) as raw:
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
    _on_connect(store, f"PRAGMA max_page_count={pages}")  # the file cannot grow: a full disk
    with pytest.raises(StoreUnavailable) as caught:
        _add_fact(store, "x" * 200_000)
    assert caught.value.one_line() == (
        "the disk holding the database is full; nothing of this command was stored, and "
        "nothing stored before was lost — free some space and run it again"
    )
    assert _facts(store) == 1


def test_a_database_locked_by_another_process_is_one_line(store):
    _on_connect(store, "PRAGMA busy_timeout=50")
    other = sqlite3.connect(store.engine.url.database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable, match="locked by another process") as caught:
            _add_fact(store, "waits for the lock")
        assert "wait for the other converse command to finish" in caught.value.one_line()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert _facts(store) == 0


def test_a_read_only_database_says_read_only(store):
    _on_connect(store, "PRAGMA query_only=ON")
    with pytest.raises(StoreUnavailable) as caught:
        _add_fact(store, "cannot be written")
    assert caught.value.one_line().startswith("the database is read-only;")
    assert "make the file and its folder writable" in caught.value.one_line()


def test_a_postgresql_server_that_never_answers_is_one_line_within_the_timeout(monkeypatch):
    import socket
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts the connection, never says a word
    port = listener.getsockname()[1]
    monkeypatch.setenv("CONVERSE_DB_CONNECT_TIMEOUT_S", "1")
    started = time.monotonic()
    try:
        with pytest.raises(StoreUnavailable, match="cannot open the database"):
            open_store(f"postgresql+psycopg://ana@127.0.0.1:{port}/converse")
    finally:
        listener.close()
    assert time.monotonic() - started < 10
