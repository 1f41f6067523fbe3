"""Erase and words repeated in plain chat: erasing a fact blanks the turns linked to it; the
person's other turns that mention the words are erased too only when named with --mentions
(shown before it runs), checked on the database file's bytes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()
WORD = b"rambutan"


@pytest.fixture
def told(tmp_path, monkeypatch) -> tuple[Path, list[str]]:
    db = tmp_path / "erase.db"
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{db}")
    fact = {
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to rambutans"},
    }
    turns = [
        {"message": "I'm allergic to rambutans", **fact},
        {"message": "yes", "after": "remember_about_me", **fact},
        {
            "message": "rambutans at the market today, ugh",
            "intent": "general_conversation",
            "params": {},
        },
    ]
    script = tmp_path / "script.yaml"
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    chat = ["chat", "-p", "Ana", "--provider", "scripted", "--script", str(script), "-m"]
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    for turn in turns:
        assert runner.invoke(app, [*chat, turn["message"]]).exit_code == 0
    return db, chat


def _bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_a_plain_erase_names_what_it_leaves_and_the_command_that_erases_it(told):
    """What erase promises is the fact and its turns; a turn that repeats a word of the fact
    unlinked is named after the erase, with the command that erases it, and that command
    leaves no byte of the word in the file (database and -wal)."""
    db, _ = told
    done = runner.invoke(app, ["memory", "erase", "1", "-p", "Ana", "--yes"])
    assert done.exit_code == 0, done.output
    assert WORD in _bytes(db).lower()
    with sqlite3.connect(db) as conn:
        holding = [i for (i,) in conn.execute(
            "SELECT id FROM conversation_turns WHERE lower(content) LIKE '%rambutan%' ORDER BY id"
        )]  # fmt: skip
    assert holding
    listed = ", ".join(f"#{i}" for i in holding)
    left = (
        f"Left: {len(holding)} turn(s) not linked to it still mention 'rambutans' ({listed}); "
        "erase them too with `converse memory erase --mentions rambutans --person Ana --yes`."
    )
    assert left in done.output.replace("\n", " ")
    again = runner.invoke(app, ["memory", "erase", "--mentions", "rambutans", "--person", "Ana",
                                "--yes"])  # fmt: skip
    assert again.exit_code == 0, again.output
    assert f"Erased {len(holding)} turn(s) that mentioned the text as well." in again.output
    assert WORD not in _bytes(db).lower()
    nothing = runner.invoke(app, ["memory", "erase", "-p", "Ana", "--yes"])
    assert nothing.exit_code == 2 and "--mentions" in nothing.output


def test_mentions_named_are_shown_then_erased_to_the_last_byte(told):
    db, _ = told
    done = runner.invoke(
        app, ["memory", "erase", "1", "-p", "Ana", "--mentions", "rambutan", "--yes"]
    )
    assert done.exit_code == 0, done.output
    assert "1 more turn(s) mention 'rambutan' and will be erased too." in done.output
    assert "Erased 1 turn(s) that mentioned the text as well." in done.output
    assert WORD not in _bytes(db).lower()
