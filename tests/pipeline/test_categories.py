"""Memory categories (pipeline/categories.yaml): the file is checked, every assertion has a
category (existing rows get their engagement kind's default), the memory block shows only
categories in context mode `all`, and a reader's allowlist is enforced by the store query
(docs/memory.md, "Categories")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from evals.cli import app
from pipeline.categories import ContextMode, load_categories
from pipeline.domain import ActorKind, HistoryActor, HistoryOp, NormativeForce
from pipeline.errors import InvalidMessage, NotAllowed
from pipeline.memory import load_personal_memory
from pipeline.store import assertions as repo
from pipeline.store import open_store, upgrade
from pipeline.store.engine import alembic_config
from pipeline.store.filtered import Filters, filtered_memories
from pipeline.store.history import history_of
from pipeline.store.people import get_person

runner = CliRunner()


def test_the_shipped_file_is_valid_and_names_the_modes() -> None:
    config = load_categories()
    assert config.mode("profile") is ContextMode.ALL
    assert config.mode("procedural") is ContextMode.NONE
    assert config.default_for("personal") == "profile"
    assert config.default_for("project") == "knowledge"
    # procedural steps are never in conversation: not in the companion's default reading
    assert "procedural" not in config.allowed("companion", None)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("categories: [}", "not valid YAML"),
        ("categories: []\ndefaults: {personal: a, project: a}\nallowlists: {}", "categories"),
        (
            "categories: [{name: a, context: sometimes}]\n"
            "defaults: {personal: a, project: a}\nallowlists: {}",
            "categories.0.context",
        ),
        (
            "categories: [{name: a, context: all}]\n"
            "defaults: {personal: a, project: a}\nallowlists: {bot: [b]}",
            "allowlists.bot names 'b'",
        ),
        (
            "categories: [{name: a, context: all}]\n"
            "defaults: {personal: zz, project: a}\nallowlists: {}",
            "defaults.personal names 'zz'",
        ),
    ],
)
def test_a_broken_file_is_one_error_naming_the_mistake(
    tmp_path: Path, body: str, named: str
) -> None:
    path = tmp_path / "categories.yaml"
    path.write_text(body)
    with pytest.raises(InvalidMessage) as caught:
        load_categories(path)
    assert named in caught.value.one_line()
    assert str(path) in caught.value.one_line()


def test_a_missing_file_says_which(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSE_CATEGORIES_FILE", str(tmp_path / "nope.yaml"))
    with pytest.raises(InvalidMessage, match=r"nope\.yaml' cannot be read"):
        load_categories()


def test_new_assertions_take_their_engagement_kind_default(store, make_person) -> None:
    person, project = make_person(store)
    with store.write() as session:
        personal = repo.add_assertion(
            session, person.personal_engagement_id, "Ana is left-handed", ActorKind.OPERATOR
        )
        note = repo.add_assertion(session, project.id, "Beds face south", ActorKind.OPERATOR)
        steps = repo.add_assertion(
            session,
            project.id,
            "1. Water. 2. Mulch.",
            ActorKind.OPERATOR,
            category="procedural",
        )
    assert (personal.category, note.category, steps.category) == (
        "profile",
        "knowledge",
        "procedural",
    )
    with store.write() as session, pytest.raises(InvalidMessage, match="no memory category 'x'"):
        repo.add_assertion(session, project.id, "nothing", ActorKind.OPERATOR, category="x")


def test_a_category_change_is_in_the_history(store, make_person) -> None:
    person, _ = make_person(store)
    with store.write() as session:
        a = repo.add_assertion(
            session, person.personal_engagement_id, "Ana loves figs", ActorKind.OPERATOR
        )
        moved = repo.set_category(session, a.id, "preferences", by=HistoryActor.CLI)
        entries = history_of(session, a.engagement_id, a.display_number)
    assert moved.category == "preferences"
    assert (entries[-1].op, entries[-1].detail) == (
        HistoryOp.UPDATE,
        {"category": ["profile", "preferences"]},
    )


def test_the_memory_block_shows_only_categories_in_context_all(store, make_person) -> None:
    person, _ = make_person(store)
    personal = person.personal_engagement_id
    with store.write() as session:
        for content, category in [
            ("Ana is left-handed", "profile"),
            ("Ana prefers tea", "preferences"),
            ("Ana ran a marathon in May", "events"),
            ("1. Open the shed. 2. Oil the hinge.", "procedural"),
        ]:
            repo.add_assertion(
                session,
                personal,
                content,
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category=category,
            )
        block = load_personal_memory(session, personal)
    assert "left-handed" in block and "tea" in block
    assert "marathon" not in block  # rag: found by search only
    assert "shed" not in block  # none: only memory.query naming procedural


def test_a_category_outside_the_allowlist_is_refused_naming_reader_and_category(
    store, make_person
) -> None:
    person, _ = make_person(store)
    with store.read() as session:
        with pytest.raises(NotAllowed) as caught:
            filtered_memories(
                session, Filters(person.id, "stylist", categories=("preferences", "profile"))
            )
        assert caught.value.one_line() == (
            "reader 'stylist' may not read memory category 'profile' — "
            "'stylist' may read: preferences"
        )
        with pytest.raises(NotAllowed, match="'intruder' is not a memory reader"):
            filtered_memories(session, Filters(person.id, "intruder"))
        with pytest.raises(InvalidMessage, match="no memory category 'gossip'"):
            filtered_memories(session, Filters(person.id, "companion", categories=("gossip",)))


def test_existing_rows_get_their_engagement_kind_default_on_upgrade(db_url: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:
        config = alembic_config(db_url)
        config.attributes["connection"] = conn
        command.upgrade(config, "0007")
        conn.execute(
            text("INSERT INTO persons (id, name, created_at) VALUES (1, 'a', '2026-01-01')")
        )
        for eid, kind in [(1, "personal"), (2, "project")]:
            conn.execute(
                text(
                    "INSERT INTO engagements (id, name, visibility, seed, owner_person_id,"
                    " created_at, last_display_number) VALUES (:i, :n, :k, 's', 1,"
                    " '2026-01-01', 1)"
                ),
                {"i": eid, "n": kind, "k": kind},
            )
            conn.execute(
                text(
                    "INSERT INTO assertions (id, engagement_id, display_number, content, actor,"
                    " force, created_at, updated_at, last_accessed_at) VALUES (:i, :i, 1, 'x',"
                    " 'operator', 'committed', '2026-01-01', '2026-01-01', '2026-01-01')"
                ),
                {"i": eid},
            )
    engine.dispose()
    upgrade(db_url)
    store = open_store(db_url)
    try:
        with store.read() as session:
            assert repo.get_assertion(session, 1).category == "profile"
            assert repo.get_assertion(session, 2).category == "knowledge"
    finally:
        store.dispose()


def test_memory_category_command_files_a_fact(sqlite_url: str) -> None:
    store = open_store(sqlite_url)
    with store.write() as session:
        from pipeline.store.people import create_person

        person = create_person(session, "ana")
        repo.add_assertion(session, person.personal_engagement_id, "Ana runs", ActorKind.OPERATOR)
    store.dispose()
    args = ["memory", "category", "1", "events", "--person", "ana", "--db-url", sqlite_url]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert done.output == "#1 is now in events: Ana runs\n"
    wrong = runner.invoke(app, [*args[:3], "gossip", *args[4:]])
    assert wrong.exit_code == 2
    assert "there is no memory category 'gossip'" in wrong.output
    history = runner.invoke(
        app, ["memory", "history", "1", "--person", "ana", "--db-url", sqlite_url]
    )
    assert "category profile" in history.output and "category events" in history.output
    store = open_store(sqlite_url)
    with store.read() as session:
        assert repo.get_assertion(session, 1).category == "events"
        assert get_person(session, "ana").name == "ana"
    store.dispose()


def test_the_export_names_each_facts_category(store, make_person) -> None:
    from pipeline.memory.export import as_markdown, export_person

    person, _ = make_person(store)
    with store.write() as session:
        repo.add_assertion(
            session,
            person.personal_engagement_id,
            "Ana ran a marathon",
            ActorKind.OPERATOR,
            category="events",
        )
        data = export_person(session, get_person(session, "ana"))
    assert "(held; events; importance 0.5" in as_markdown(data)
    assert json.dumps(data).count('"category": "events"') == 1


def test_procedural_steps_never_reach_the_conversation(store, make_person, say) -> None:
    from tests.conftest import script

    _, project = make_person(store)
    with store.write() as session:
        for content, category in [
            ("The beds face south", None),
            ("1. Unlock the shed. 2. Oil the mower.", "procedural"),
        ]:
            repo.add_assertion(
                session,
                project.id,
                content,
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category=category,
            )
    provider = script(
        {"message": "what do you know?", "intent": "ask_about_past_input", "params": {}},
        {
            "message": "what about the mower in the shed?",
            "intent": "ask_about_past_input",
            "params": {"query": "mower shed"},
        },
    )
    listed = say(store, provider, "what do you know?", project="Garden")
    searched = say(store, provider, "what about the mower in the shed?", project="Garden")
    for outcome in (listed, searched):
        assert "Unlock" not in outcome.prompt.text  # neither in the project context nor recalled
        assert all("Unlock" not in i["content"] for i in outcome.route.operation_data["items"])
    assert "The beds face south" in listed.prompt.text
