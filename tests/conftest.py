"""Shared fixtures: stores on SQLite (always) and PostgreSQL (when CONVERSE_TEST_PG_URL is set)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from pipeline.converse import TurnOutcome, converse
from pipeline.domain import Engagement, Person
from pipeline.english.lexicon import ENGLISH
from pipeline.providers.base import Providers
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.store import Store, open_store
from pipeline.store.people import create_person, create_project

# Rich reads COLUMNS when a console is made, at import: keep CLI output unwrapped in tests.
os.environ["COLUMNS"] = "200"

PG_URL = os.environ.get("CONVERSE_TEST_PG_URL")
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a PostgreSQL URL the postgres-marked tests skip — except in CI, where they fail."""
    if PG_URL:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError("CI must set CONVERSE_TEST_PG_URL so store tests run on PostgreSQL")
    skip = pytest.mark.skip(reason="CONVERSE_TEST_PG_URL is not set")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'converse.db'}"


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database, dropped afterwards."""
    assert PG_URL is not None
    name = f"converse_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'converse.db'}"
    url: str = request.getfixturevalue("pg_database")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url)
    yield opened
    opened.dispose()


@pytest.fixture
def sqlite_store(sqlite_url: str) -> Iterator[Store]:
    """A store on SQLite only, for tests that are not about the backend."""
    opened = open_store(sqlite_url)
    yield opened
    opened.dispose()


@pytest.fixture
def make_person() -> Callable[..., tuple[Person, Engagement]]:
    def make(store: Store, name: str = "ana", project: str = "Garden") -> tuple[Person, Engagement]:
        with store.write() as session:
            person = create_person(session, name)
            engagement = create_project(session, person, project, "A backyard vegetable farm")
        return person, engagement

    return make


def script(*entries: dict[str, Any]) -> ScriptedProvider:
    """A scripted provider from entries like {"message": ..., "intent": ..., "params": {...}}."""
    return ScriptedProvider(
        [
            ScriptEntry(
                message=e["message"],
                intent=e.get("intent", ""),
                params=dict(e.get("params") or {}),
                after=e.get("after"),
                reply=e.get("reply"),
                reading=e.get("reading"),
                restore=e.get("restore") is True,
                question=e.get("question") is True,
                profile_field=e.get("profile_field"),
                acts=e.get("acts"),
            )
            for e in entries
        ]
    )


@pytest.fixture
def say() -> Callable[..., TurnOutcome]:
    """Run one turn with a scripted provider."""

    def run(
        store: Store,
        provider: ScriptedProvider,
        message: str,
        person: str = "ana",
        project: str | None = None,
    ) -> TurnOutcome:
        return converse(
            store,
            person=person,
            project=project,
            message=message,
            # the scripted conversations are English, as a registered provider's are
            providers=Providers.of(provider, provider, lexicon=ENGLISH),
        )

    return run
