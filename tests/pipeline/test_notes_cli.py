"""`converse notes`: a project's notes listed, retracted, restored and erased like personal facts,
numbered `notes#N` so they are never confused with the personal `#N`."""

from __future__ import annotations

import pytest
import yaml
from sqlalchemy import MetaData, create_engine, select, text
from typer.testing import CliRunner

from evals.cli import app
from pipeline.domain import ActorKind, NormativeForce
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.erasure import ERASED_MARKER
from pipeline.store.people import get_person, get_project

runner = CliRunner()
PROJECT = "Backyard garden"
WHOSE = ["--person", "Ana", "--project", PROJECT]
SECRET = "quassia"  # appears nowhere in the schema, prompts or fixtures
NOTE = f"Spray {SECRET} tea against aphids"
KEPT_NOTE = "The soil pH should be 6.5"
FACT = "You're allergic to all shellfish"
HINT = f"--person 'Ana' --project '{PROJECT}'"


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'notes.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "200")  # no wrapping of rich output
    script = tmp_path / "script.yaml"
    turns = [
        {"message": "spray quassia", "intent": "add_knowledge", "params": {"knowledge": NOTE}},
        {"message": "soil", "intent": "add_knowledge", "params": {"knowledge": KEPT_NOTE}},
        {
            "message": "lock in 1",
            "intent": "commit_knowledge",
            "params": {"knowledge_reference": "#1"},
        },
        {"message": "what do we have", "intent": "list_knowledge"},
        {
            "message": "shellfish",
            "intent": "remember_about_me",
            "params": {"personal_fact": FACT},
        },
    ]
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    monkeypatch.setenv("CONVERSE_PROVIDER", "scripted")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", PROJECT, "--person", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Empty", "--person", "Ana"]).exit_code == 0
    return url, str(script)


def say(env, message):
    _, script = env
    args = ["chat", "--person", "Ana", "--project", PROJECT, "--script", script, "-m", message]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def notes(command, *args, **kwargs):
    return runner.invoke(app, ["notes", command, *args, *WHOSE], **kwargs)


def snapshot(url):
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = {
            table: sorted(conn.execute(text(f"select * from {table}")).all(), key=repr)
            for table in ("assertions", "conversation_turns", "turn_assertions")
        }
    engine.dispose()
    return rows


def every_row(url):
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    with engine.connect() as conn:
        found = "\n".join(
            repr(row) for table in tables.tables.values() for row in conn.execute(select(table))
        )
    engine.dispose()
    return found.casefold()


def one_line_error(result):
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    return lines[0]


def test_chat_numbers_project_notes_apart_from_personal_facts(env):
    assert f"memory: notes#1 {NOTE!r}: new, held" in say(env, "spray quassia")
    assert f'memory: #1 "{FACT}": new, held' in say(env, "shellfish")


def test_list_forget_and_restore_a_note(env):
    url, _ = env
    say(env, "spray quassia")
    say(env, "soil")
    say(env, "shellfish")
    listed = notes("list")
    assert listed.exit_code == 0, listed.output
    assert "notes#2" in listed.output and "notes#1" in listed.output
    assert listed.output.index(KEPT_NOTE) < listed.output.index(NOTE)  # newest first
    assert FACT not in listed.output
    assert NOTE not in runner.invoke(app, ["memory", "list", "--person", "Ana"]).output

    forgot = notes("forget", "1")
    assert forgot.exit_code == 0, forgot.output
    assert forgot.output == f"Retracted notes#1: {NOTE}\n"
    assert NOTE not in notes("list").output
    assert "retracted" in notes("list", "--all").output

    before = snapshot(url)
    assert one_line_error(notes("forget", "1")) == (
        f"error: notes#1 is already retracted — restore it with `converse notes restore N {HINT}`"
    )
    assert snapshot(url) == before

    restored = notes("restore", "1")
    assert restored.exit_code == 0, restored.output
    assert restored.output == f"Restored notes#1: {NOTE}\n"
    assert one_line_error(notes("restore", "1")) == (
        "error: notes#1 is not retracted (it is committed) — nothing to restore"
    )
    # The personal fact #1 was never touched by the notes commands.
    store = open_store(url)
    with store.read() as session:
        person = get_person(session, "Ana")
        assert person.personal_engagement_id is not None
        fact = repo.get_by_number(session, person.personal_engagement_id, 1)
    store.dispose()
    assert (fact.content, fact.force) == (FACT, NormativeForce.HELD)


def test_list_shows_the_newest_and_counts_the_rest(env):
    url, _ = env
    store = open_store(url)
    with store.write() as session:
        project = get_project(session, get_person(session, "Ana"), PROJECT)
        for n in range(1, 8):
            repo.add_assertion(session, project.id, f"note number {n}", ActorKind.OPERATOR)
    store.dispose()
    listed = notes("list", "--limit", "3")
    assert listed.exit_code == 0, listed.output
    assert [f"note number {n}" in listed.output for n in (7, 6, 5, 4)] == [True] * 3 + [False]
    assert listed.output.rstrip("\n").splitlines()[-1] == (
        "4 older assertion(s) not shown — pass --limit 0 to list all"
    )
    assert "not shown" not in notes("list", "--limit", "0").output
    empty = runner.invoke(app, ["notes", "list", "--person", "Ana", "--project", "Empty"])
    assert empty.output == "No notes in project 'Empty'.\n"


def test_erase_removes_the_note_and_every_turn_that_stated_it(env):
    url, _ = env
    say(env, "spray quassia")
    assert "memory: notes#1 " in say(env, "lock in 1")  # committed: the reply restates it
    say(env, "soil")
    say(env, "what do we have")  # the list names both notes
    say(env, "shellfish")
    assert SECRET in every_row(url)

    erased = notes("erase", "1", "--yes")

    assert erased.exit_code == 0, erased.output
    assert erased.output == "Erased 1 assertion(s) permanently.\n"
    rows = every_row(url)
    assert SECRET not in rows
    assert KEPT_NOTE.casefold() in rows and FACT.casefold() in rows
    engine = create_engine(url)
    with engine.connect() as conn:
        turns = conn.execute(text("select content from conversation_turns order by id")).all()
    engine.dispose()
    contents = [c for (c,) in turns]
    # Both sides of the turns that added, committed and listed the note; not the others.
    erased = [ERASED_MARKER] * 2
    assert contents[:4] == erased * 2 and contents[6:8] == erased
    assert ERASED_MARKER not in contents[4:6] + contents[8:]
    assert contents[4] == "soil" and contents[8] == "shellfish"
    assert "notes#1" not in notes("list", "--all").output
    assert one_line_error(notes("erase", "1", "--yes")) == (
        f"error: project '{PROJECT}' has no notes#1 — see the numbers with "
        f"`converse notes list {HINT}`"
    )


def test_erase_asks_first_and_no_keeps_the_note(env, monkeypatch):
    url, _ = env
    say(env, "spray quassia")
    before = snapshot(url)
    # Without a terminal there is no one to ask.
    assert one_line_error(notes("erase", "1")) == (
        "error: erase needs confirmation — run it in a terminal or pass --yes"
    )
    monkeypatch.setattr("pipeline.cli.shelf_commands.is_interactive", lambda: True)
    refused = notes("erase", "1", input="n\n")
    assert refused.exit_code == 1
    assert f"Permanently erase notes#1 {NOTE}? This cannot be undone" in refused.output
    assert refused.output.endswith("Nothing erased.\n")
    assert snapshot(url) == before
    agreed = notes("erase", "1", input="y\n")
    assert agreed.exit_code == 0, agreed.output
    assert SECRET not in every_row(url)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["forget", "9"],
            f"error: project '{PROJECT}' has no notes#9 — see the numbers with "
            f"`converse notes list {HINT}`",
        ),
        (
            ["erase", "1", "9", "--yes"],  # all or none
            f"error: project '{PROJECT}' has no notes#9 — see the numbers with "
            f"`converse notes list {HINT}`",
        ),
        (
            ["restore", "0"],
            "error: there is no notes#0 — see the numbers with `converse notes list --person NAME --project PROJECT`",
        ),
        (
            ["erase", str(2**70), "--yes"],
            f"error: there is no notes#{2**70} — see the numbers with `converse notes list --person NAME --project PROJECT`",
        ),
    ],
)
def test_a_bad_number_is_one_line_and_changes_nothing(env, args, expected):
    url, _ = env
    say(env, "spray quassia")
    before = snapshot(url)
    assert one_line_error(notes(*args)) == expected
    assert snapshot(url) == before


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["notes", "forget", "1", "--person", "Ana", "--project", "Empty"],
            "error: nothing is stored in project 'Empty' — there is nothing to change",
        ),
        (
            ["notes", "list", "--person", "Ana", "--project", "Orchard"],
            "error: Ana has no project named 'Orchard' — create it with "
            "`converse project add 'Orchard' --person 'Ana'`",
        ),
        (
            ["notes", "erase", "1", "--yes", "--person", "Bo", "--project", PROJECT],
            "error: no person named 'Bo' — create one with `converse person add 'Bo'`",
        ),
    ],
)
def test_unknown_names_and_empty_projects_are_one_line(env, args, expected):
    url, _ = env
    say(env, "spray quassia")
    before = snapshot(url)
    assert one_line_error(runner.invoke(app, args)) == expected
    assert snapshot(url) == before


MARKUP_NOTE = "[bold]Prune[/bold] the :rose: bushes \\[x] [/]"
MARKUP_PROJECT = "[red]Beds[/red] :seedling:"


def test_markup_in_notes_and_project_names_prints_as_typed(env, monkeypatch):
    url, _ = env
    assert runner.invoke(app, ["project", "add", MARKUP_PROJECT, "--person", "Ana"]).exit_code == 0
    store = open_store(url)
    with store.write() as session:
        project = get_project(session, get_person(session, "Ana"), MARKUP_PROJECT)
        repo.add_assertion(session, project.id, MARKUP_NOTE, ActorKind.OPERATOR)
    store.dispose()
    whose = ["--person", "Ana", "--project", MARKUP_PROJECT]

    listed = runner.invoke(app, ["notes", "list", *whose])
    assert listed.exit_code == 0, listed.output
    assert f"Notes in project {MARKUP_PROJECT!r}" in listed.output
    assert MARKUP_NOTE in listed.output
    forgot = runner.invoke(app, ["notes", "forget", "1", *whose])
    assert forgot.output == f"Retracted notes#1: {MARKUP_NOTE}\n"
    monkeypatch.setattr("pipeline.cli.shelf_commands.is_interactive", lambda: True)
    asked = runner.invoke(app, ["notes", "erase", "1", *whose], input="n\n")
    assert f"Permanently erase notes#1 {MARKUP_NOTE}? This cannot be undone" in asked.output
