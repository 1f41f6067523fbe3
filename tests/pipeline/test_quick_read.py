"""`memory list`'s SQLite read path answers exactly as the store does, or not at all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text, update

from pipeline.domain import ActorKind, Engagement, HistoryActor, NormativeForce, Person
from pipeline.memory import manage
from pipeline.store import Store, open_store, quick_read
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, get_person
from pipeline.store.tables import AssertionRow


def _fill(store: Store, person: Person, project: Engagement) -> None:
    start = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    with store.write() as session:
        personal = person.personal_engagement_id
        assert personal is not None
        made = [
            repo.add_assertion(
                session,
                personal,
                f"fact {i} — café ☕ \"quoted\" 'single'",
                ActorKind.OPERATOR if i % 2 else ActorKind.COMPANION,
                NormativeForce.COMMITTED if i % 3 else NormativeForce.HELD,
                created_at=start + timedelta(minutes=i // 2),  # ties broken by id
            )
            for i in range(7)
        ]
        repo.set_force(
            session, made[4].id, NormativeForce.RETRACTED, "asked to forget", by=HistoryActor.CLI
        )
        repo.set_pinned(session, made[6].id, True, by=HistoryActor.CLI)
        # Set aside by the lifecycle sweep: one live, one retracted.
        aside = [made[1], made[5]]
        repo.set_force(session, made[5].id, NormativeForce.RETRACTED, by=HistoryActor.CLI)
        session.execute(
            update(AssertionRow)
            .where(AssertionRow.id.in_([a.id for a in aside]))
            .values(deleted_at=start + timedelta(days=90))
        )
        repo.add_assertion(session, project.id, "a project note", ActorKind.OPERATOR)
        other = create_person(session, "bo")
        assert other.personal_engagement_id is not None
        repo.add_assertion(session, other.personal_engagement_id, "bo's fact", ActorKind.OPERATOR)
    manage.erase_numbers(store, person.name, [made[2].display_number])


@pytest.mark.parametrize(
    ("include_retracted", "include_deleted", "count"),
    [(False, False, 3), (True, False, 4), (False, True, 4), (True, True, 6)],
)
def test_same_answer_as_the_store(
    sqlite_url: str,
    sqlite_store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
    include_retracted: bool,
    include_deleted: bool,
    count: int,
) -> None:
    person, project = make_person(sqlite_store)
    _fill(sqlite_store, person, project)
    with sqlite_store.read() as session:
        expected = manage.personal_assertions(
            session, get_person(session, "ana"), include_retracted, include_deleted
        )
    # The name is matched as the store matches it: runs of spaces collapsed.
    got = quick_read.personal_assertions(sqlite_url, "  ana ", include_retracted, include_deleted)
    assert got == expected
    assert len(got) == count
    assert all(a.created_at.tzinfo is not None for a in got)
    assert all(a.last_accessed_at is not None for a in got)
    assert [a.pinned for a in got].count(True) == 1
    assert sum(a.deleted_at is not None for a in got) == (count - 3 - include_retracted)


def test_an_empty_memory_is_an_empty_list(
    sqlite_url: str, sqlite_store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    make_person(sqlite_store)
    assert quick_read.personal_assertions(sqlite_url, "ana") == []


def test_leaves_everything_else_to_the_store(
    tmp_path: Path,
    sqlite_url: str,
    sqlite_store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
) -> None:
    make_person(sqlite_store)
    assert quick_read.personal_assertions(sqlite_url, "nobody") is None
    assert quick_read.personal_assertions(f"sqlite:///{tmp_path / 'absent.db'}", "ana") is None
    assert quick_read.personal_assertions("sqlite://", "ana") is None
    assert quick_read.personal_assertions(f"{sqlite_url}?timeout=5", "ana") is None
    assert quick_read.personal_assertions("postgresql+psycopg://u@h/db", "ana") is None
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hello")
    assert quick_read.personal_assertions(f"sqlite:///{not_a_db}", "ana") is None
    with sqlite_store.write() as session:
        session.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    # An older database goes through the store, which says to upgrade.
    assert quick_read.personal_assertions(sqlite_url, "ana") is None
    with pytest.raises(Exception, match="converse db upgrade"):
        open_store(sqlite_url)
