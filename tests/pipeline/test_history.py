"""Assertion history: every write leaves one row in its own transaction, erasure removes the
history's text (down to the SQLite file's bytes), and `memory history` / `memory export` show
it (docs/memory.md, "History")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from evals.cli import app
from pipeline.domain import ActorKind, HistoryActor, HistoryOp, NormativeForce
from pipeline.memory import manage
from pipeline.memory.export import export_person
from pipeline.memory.manage import erase_fact
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.history import history_of
from pipeline.store.people import get_person, get_project
from pipeline.store.tables import HistoryRow
from tests.conftest import script

# Words that appear nowhere else in the schema, prompts or fixtures, so a byte search is exact.
FIRST = "You're allergic to cherimoyas"
REFINED = "You're allergic to rambutans"
SECRETS = ("cherimoya", "rambutan")

provider = script(
    {
        "message": "I'm allergic to cherimoyas",
        "intent": "remember_about_me",
        "params": {"personal_fact": FIRST},
    },
    {
        "message": "no, rambutans actually",
        "after": "remember_about_me",
        "intent": "remember_about_me",
        "params": {"personal_fact": REFINED},
        "reading": {"relation": "correct"},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    {
        "message": "forget my rambutan allergy",
        "intent": "forget_about_me",
        "params": {"forget_description": "rambutan allergy"},
    },
    {
        "message": "yes",
        "after": "forget_about_me",
        "intent": "forget_about_me",
        "params": {"forget_description": "rambutan allergy"},
    },
)


def _talk(store: Store, say, *messages: str) -> None:
    for message in messages:
        say(store, provider, message)


def _told_refined_confirmed_forgotten(store: Store, say) -> None:
    _talk(store, say, "I'm allergic to cherimoyas", "no, rambutans actually", "yes")
    _talk(store, say, "forget my rambutan allergy", "yes")


def _history(store: Store, number: int = 1) -> list:
    with store.read() as session:
        person = get_person(session, "ana")
        assert person.personal_engagement_id is not None
        return history_of(session, person.personal_engagement_id, number)


def test_every_write_of_a_conversation_and_the_cli_is_in_the_history(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _told_refined_confirmed_forgotten(store, say)
    with store.write() as session:
        person = get_person(session, "ana")
        manage.restore(session, person, 1)
        shelf = manage.personal_shelf(person)
        manage.pin_on(session, shelf, 1, True)
        manage.importance_on(session, shelf, 1, 0.9)

    got = [
        (h.op, h.actor, h.old_content, h.new_content, h.old_force, h.new_force)
        for h in _history(store)
    ]

    held, committed, retracted = (
        NormativeForce.HELD,
        NormativeForce.COMMITTED,
        NormativeForce.RETRACTED,
    )
    assert got == [
        (HistoryOp.ADD, HistoryActor.COMPANION, None, FIRST, None, held),
        (HistoryOp.UPDATE, HistoryActor.OPERATOR, FIRST, REFINED, None, None),
        (HistoryOp.UPDATE, HistoryActor.OPERATOR, None, None, held, committed),
        (HistoryOp.UPDATE, HistoryActor.OPERATOR, None, None, committed, retracted),
        (HistoryOp.RESTORE, HistoryActor.CLI, None, None, retracted, committed),
        (HistoryOp.UPDATE, HistoryActor.CLI, None, None, None, None),
        (HistoryOp.UPDATE, HistoryActor.CLI, None, None, None, None),
    ]
    entries = _history(store)
    assert entries[3].detail == {"rationale": "Operator asked to forget it: rambutan allergy"}
    assert entries[5].detail == {"pinned": [False, True]}
    assert entries[6].detail == {"importance": [0.5, 0.9]}
    times = [h.created_at for h in entries]
    assert times == sorted(times)


def test_a_history_row_is_stored_with_its_write_or_not_at_all(
    store: Store, make_person, say
) -> None:
    person, _ = make_person(store)
    assert person.personal_engagement_id is not None
    with pytest.raises(RuntimeError), store.write() as session:
        repo.add_assertion(
            session, person.personal_engagement_id, "You like figs", ActorKind.OPERATOR
        )
        raise RuntimeError("the transaction fails after the write")
    # A turn decides once and applies once: one ADD.
    _talk(store, say, "I'm allergic to cherimoyas")
    with store.read() as session:
        ops = session.execute(select(HistoryRow.display_number, HistoryRow.op)).all()
        numbers = session.scalar(select(func.count()).select_from(HistoryRow))
    assert ops == [(1, "ADD")]
    assert numbers == 1


def _file_bytes(url: str) -> bytes:
    path = Path(url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists()).lower()


def test_erase_removes_the_history_text_from_the_database_file(
    sqlite_url: str, make_person, say
) -> None:
    store = open_store(sqlite_url)
    try:
        make_person(store)
        _told_refined_confirmed_forgotten(store, say)
        assert all(s.encode() in _file_bytes(sqlite_url) for s in SECRETS)

        done = erase_fact(store, "ana", "rambutan")

        assert done.checkpointed
        raw = _file_bytes(sqlite_url)
        assert not [s for s in SECRETS if s.encode() in raw]
        entries = _history(store)
    finally:
        store.dispose()
    assert [h.op for h in entries] == [HistoryOp.ADD] + [HistoryOp.UPDATE] * 3 + [HistoryOp.DELETE]
    assert all(h.old_content is None and h.new_content is None for h in entries)
    # Rows that held text say so; a force change that held none is left as it was.
    assert [h.detail for h in entries[:-1]] == [{"erased": True}] * 2 + [{}, {"erased": True}]
    assert (entries[2].old_force, entries[2].new_force) == (
        NormativeForce.HELD,
        NormativeForce.COMMITTED,
    )
    delete = entries[-1]
    assert (delete.actor, delete.old_force, delete.detail) == (
        HistoryActor.CLI,
        NormativeForce.RETRACTED,
        {"reason": "erased"},
    )


def test_erased_history_has_no_text_on_either_backend(store: Store, make_person, say) -> None:
    make_person(store)
    _told_refined_confirmed_forgotten(store, say)
    erase_fact(store, "ana", "rambutan")
    with store.read() as session:
        rows = session.execute(select(HistoryRow)).scalars().all()
        exported = export_person(session, get_person(session, "ana"))
    text = repr([(r.old_content, r.new_content, r.detail) for r in rows]).casefold()
    assert not [s for s in SECRETS if s in text]
    assert rows[-1].op == "DELETE"
    assert exported["personal"] == [
        {"number": 1, "erased": True, "history": exported["personal"][0]["history"]}
    ]
    assert [c["op"] for c in exported["personal"][0]["history"]][-1] == "DELETE"
    assert not [s for s in SECRETS if s in json.dumps(exported).casefold()]


runner = CliRunner()


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Garden", "--person", "Ana"]).exit_code == 0
    store = open_store(url)
    with store.write() as session:
        person = get_person(session, "Ana")
        assert person.personal_engagement_id is not None
        fact = repo.add_assertion(
            session, person.personal_engagement_id, "You like [bold]figs[/]", ActorKind.OPERATOR
        )
        repo.amend_content(session, fact.id, "You like dates", by=HistoryActor.OPERATOR)
        garden = manage.project_shelf(person, get_project(session, person, "Garden"))
        note = repo.add_assertion(session, garden.engagement_id, "Clay soil", ActorKind.OPERATOR)
        repo.set_force(session, note.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
    store.dispose()
    return url, tmp_path


def _one_line_error(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    return lines[0]


def test_memory_history_prints_every_change_oldest_first(env) -> None:
    assert runner.invoke(app, ["memory", "pin", "1", "--person", "Ana"]).exit_code == 0

    result = runner.invoke(app, ["memory", "history", "1", "--person", "Ana"])

    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if "│" in line]
    assert [r.split("│")[2].strip() for r in rows] == ["ADD", "UPDATE", "UPDATE"]
    assert "you, in chat" in rows[0] and "'You like [bold]figs[/]' held" in rows[0]
    assert "'You like [bold]figs[/]'" in rows[1] and "'You like dates'" in rows[1]
    assert (
        "you, at the command line" in rows[2]
        and "not pinned" in rows[2]
        and rows[2].rstrip(" │").endswith("pinned")
    )

    notes = runner.invoke(app, ["notes", "history", "1", "--person", "Ana", "--project", "Garden"])
    assert notes.exit_code == 0, notes.output
    assert "History of notes#1 in project 'Garden'" in notes.output
    assert "held" in notes.output and "committed" in notes.output


def test_history_of_an_erased_fact_shows_a_delete_without_text(env) -> None:
    erased = runner.invoke(app, ["memory", "erase", "1", "--person", "Ana", "--yes"])
    assert erased.exit_code == 0, erased.output

    result = runner.invoke(app, ["memory", "history", "1", "--person", "Ana"])

    assert result.exit_code == 0, result.output
    assert "figs" not in result.output and "dates" not in result.output
    assert "[text erased]" in result.output
    assert "DELETE" in result.output and "erased (text removed)" in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["memory", "history", "0", "--person", "Ana"],
            "error: there is no #0 — see the numbers with `converse memory list --person NAME`",
        ),
        (
            ["memory", "history", "99999999999999999999", "--person", "Ana"],
            "error: there is no #99999999999999999999 — see the numbers with `converse memory list --person NAME`",
        ),
        (
            ["memory", "history", "9", "--person", "Ana"],
            "error: Ana's personal memory has no #9 — see the numbers with "
            "`converse memory list --person 'Ana'`",
        ),
        (
            ["memory", "history", "1", "--person", "Zoe"],
            "error: no person named 'Zoe' — create one with `converse person add 'Zoe'`",
        ),
        (
            ["notes", "history", "7", "--person", "Ana", "--project", "Garden"],
            "error: project 'Garden' has no notes#7 — see the numbers with "
            "`converse notes list --person 'Ana' --project 'Garden'`",
        ),
        (
            ["memory", "export", "--person", "Ana", "--format", "xml"],
            "error: unknown export format 'xml' — use --format json or --format markdown",
        ),
        (
            ["memory", "export", "--person", "Zoe"],
            "error: no person named 'Zoe' — create one with `converse person add 'Zoe'`",
        ),
    ],
)
def test_bad_history_and_export_input_is_one_line(env, args, expected) -> None:
    assert _one_line_error(runner.invoke(app, args)) == expected


def test_export_json_holds_every_fact_note_and_change(env) -> None:
    result = runner.invoke(app, ["memory", "export", "--person", "Ana"])

    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["person"] == "Ana"
    [fact] = data["personal"]
    assert (fact["number"], fact["content"], fact["force"]) == (1, "You like dates", "held")
    assert [(c["op"], c["old_content"], c["new_content"]) for c in fact["history"]] == [
        ("ADD", None, "You like [bold]figs[/]"),
        ("UPDATE", "You like [bold]figs[/]", "You like dates"),
    ]
    [project] = data["projects"]
    assert project["name"] == "Garden"
    assert [(n["content"], n["force"]) for n in project["notes"]] == [("Clay soil", "committed")]
    assert [c["op"] for c in project["notes"][0]["history"]] == ["ADD", "UPDATE"]


def test_export_markdown_to_a_file_replaces_it_whole(env, monkeypatch) -> None:
    _, tmp_path = env
    target = tmp_path / "ana.md"
    target.write_text("an older export\n", encoding="utf-8")

    result = runner.invoke(
        app, ["memory", "export", "--person", "Ana", "--format", "markdown", "-o", str(target)]
    )

    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Memory of `Ana`\n")
    assert "- **#1** `You like dates` (held;" in text
    assert "`You like [bold]figs[/]` → `You like dates`" in text
    assert "## Project `Garden`" in text and "- **notes#1** `Clay soil` (committed;" in text
    assert _beside(tmp_path) == ["ana.md"]

    # A write that fails half-way leaves the earlier export as it was, and no temporary file.
    def broken_fsync(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("pipeline.files.os.fsync", broken_fsync)
    failed = runner.invoke(app, ["memory", "export", "--person", "Ana", "-o", str(target)])
    assert _one_line_error(failed) == (
        f"error: the disk holding {target} is full; the export was not written and the file "
        "there is unchanged — free some space and run it again"
    )
    assert target.read_text(encoding="utf-8") == text
    assert _beside(tmp_path) == ["ana.md"]


def _beside(folder: Path) -> list[str]:
    """The files in the folder but the database's."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("cli.db"))


def test_export_to_a_missing_folder_or_a_folder_is_one_line(env) -> None:
    _, tmp_path = env
    missing = tmp_path / "nowhere" / "x.json"
    assert _one_line_error(
        runner.invoke(app, ["memory", "export", "--person", "Ana", "-o", str(missing)])
    ) == (f"error: the folder of {missing} does not exist — create it first, or name another file")
    assert _one_line_error(
        runner.invoke(app, ["memory", "export", "--person", "Ana", "-o", str(tmp_path)])
    ) == (f"error: {tmp_path} is a folder — name a file to write the export to")
