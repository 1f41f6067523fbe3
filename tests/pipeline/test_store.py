"""The store: migrations, transactions, and what opening a database refuses."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from pipeline.domain import PERSONAL_SEED, ActorKind, HistoryActor, NormativeForce, Visibility
from pipeline.errors import InvalidMessage, SchemaOutdated, StoreUnavailable
from pipeline.providers.base import Providers
from pipeline.store import assertions as repo
from pipeline.store import head_revision, open_store, upgrade
from pipeline.store.engine import alembic_config
from pipeline.store.people import create_person, get_engagement, get_person


def test_a_new_database_is_made_by_the_migrations(store):
    tables = set(inspect(store.engine).get_table_names())
    assert {
        "persons",
        "engagements",
        "assertions",
        "conversation_turns",
        "alembic_version",
    } <= tables
    with store.engine.connect() as conn:
        assert (
            conn.execute(text("select version_num from alembic_version")).scalar()
            == head_revision()
        )


def test_a_person_gets_a_personal_engagement_with_the_known_seed(store):
    with store.write() as session:
        person = create_person(session, "ana")
    with store.read() as session:
        engagement = get_engagement(session, person.personal_engagement_id)
    assert engagement.visibility is Visibility.PERSONAL
    assert engagement.seed == PERSONAL_SEED
    assert engagement.owner_person_id == person.id


def test_display_numbers_are_per_engagement(store, make_person):
    person, project = make_person(store)
    with store.write() as session:
        a = repo.add_assertion(session, project.id, "pH 6.5", ActorKind.OPERATOR)
        b = repo.add_assertion(session, project.id, "Beds are 1.2 m wide", ActorKind.OPERATOR)
        c = repo.add_assertion(
            session, person.personal_engagement_id, "You live in Miami", ActorKind.COMPANION
        )
    assert (a.display_number, b.display_number, c.display_number) == (1, 2, 1)


def test_a_failure_midway_leaves_the_store_as_it_was(store, make_person):
    person, _ = make_person(store)
    with pytest.raises(RuntimeError), store.write() as session:
        held = repo.add_assertion(
            session, person.personal_engagement_id, "You live in Miami", ActorKind.COMPANION
        )
        repo.set_force(session, held.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
        raise RuntimeError("crash between two changes")
    with store.read() as session:
        assert repo.list_assertions(session, person.personal_engagement_id) == []


def test_a_handler_failure_rolls_back_its_assertion_and_the_turn(store, make_person, monkeypatch):
    import importlib

    from tests.conftest import script

    converse_module = importlib.import_module("pipeline.converse")
    commit_module = importlib.import_module("pipeline.turn_commit")
    make_person(store)
    provider = script(
        {
            "message": "I'm vegan",
            "intent": "remember_about_me",
            "params": {"personal_fact": "You're vegan"},
        }
    )

    def broken_add_turns(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(commit_module, "add_turns", broken_add_turns)
    with pytest.raises(RuntimeError):
        converse_module.converse(
            store, person="ana", message="I'm vegan", providers=Providers.of(provider, provider)
        )
    with store.read() as session:
        person = get_person(session, "ana")
        assert repo.list_assertions(session, person.personal_engagement_id) == []


def test_duplicate_person_names_are_refused(store):
    with store.write() as session:
        create_person(session, "ana")
    with pytest.raises(InvalidMessage, match="already exists"), store.write() as session:
        create_person(session, "ana")


def test_an_unopenable_url_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreUnavailable, match="CONVERSE_DB_URL"):
        open_store(f"sqlite:///{blocker}/sub/converse.db")
    with pytest.raises(StoreUnavailable, match="not a database URL"):
        open_store("not a url")
    with pytest.raises(StoreUnavailable, match="database server is running"):
        open_store("postgresql+psycopg://nobody@127.0.0.1:1/none")


def test_a_database_at_an_older_migration_says_to_upgrade(db_url):
    open_store(db_url).dispose()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        cfg = alembic_config(db_url)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "-1")
    engine.dispose()
    with pytest.raises(SchemaOutdated, match="converse db upgrade"):
        open_store(db_url)
    before, after = upgrade(db_url)
    assert before != after == head_revision()
    open_store(db_url).dispose()


def test_a_database_with_foreign_tables_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'other.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("create table customers (id integer)"))
    engine.dispose()
    with pytest.raises(SchemaOutdated, match="no migration record"):
        open_store(url)
