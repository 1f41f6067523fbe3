"""Hostile input at the CLI: typed text prints as typed, bad bytes and paths get one line."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from evals.cli import app
from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory import load_personal_memory
from pipeline.memory.embeddings import normalized
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import get_person

runner = CliRunner()
CHAT = ["chat", "--person", "Ana", "--provider", "scripted"]
# Rich markup, a closing tag that matches nothing (a MarkupError), and an emoji code.
HOSTILE = "[bold red]Mallory[/] [/x] :pizza:"
# Longer than 80 columns, so any wrapping would show.
FACT = (
    f"{HOSTILE} has kept a log of every tide at Pebble Cove since 2019 and [i]never[/i] misses one"
)


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    script = tmp_path / "script.yaml"
    remember = {"intent": "remember_about_me", "params": {"personal_fact": FACT}}
    turns = [
        {"message": FACT, **remember},
        {"message": "yes", "after": "remember_about_me", **remember},
    ]
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    return url, script


def snapshot(url):
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = {
            table: conn.execute(text(f"select * from {table} order by id")).all()
            for table in ("persons", "engagements", "assertions", "conversation_turns")
        }
    engine.dispose()
    return rows


def one_line_error(result):
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output  # bad input: pipeline/cli/exits.py
    assert len(lines) == 1, result.output
    return lines[0]


def ok(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


class WordEmbedder:
    """A bag-of-words stand-in for the model, so search runs without loading torch."""

    model_name = "fake-words-16"
    dim = 16

    def __init__(self, *_: object) -> None:
        pass

    def embed(self, texts):
        rows = np.ones((len(texts), self.dim), dtype=np.float32)
        return normalized(rows)


def test_typed_text_prints_as_typed_through_every_command(hostile, monkeypatch):
    _, script = hostile
    person = ["--person", HOSTILE]
    assert ok(["person", "add", HOSTILE]) == f"Created {HOSTILE} (personal memory ready).\n"
    assert ok(["person", "list"]) == f"{HOSTILE}\n"
    added = ok(["project", "add", HOSTILE, *person, "--seed", HOSTILE])
    assert added == f"Created project {HOSTILE!r} for {HOSTILE}.\n"
    assert ok(["project", "list", *person]).count(HOSTILE) == 2

    chat = [
        "chat",
        *person,
        "--project",
        HOSTILE,
        "--provider",
        "scripted",
        "--script",
        str(script),
    ]
    said = ok([*chat, "-m", FACT])
    assert f"memory: #1 {FACT!r}: new, held" in said
    assert FACT in said.split("companion (scripted", 1)[1].splitlines()[0]
    assert "held → committed" in ok([*chat, "-m", "yes"])

    assert FACT in ok(["memory", "list", *person])
    assert f"{HOSTILE}'s personal memory" in ok(["memory", "list", *person])
    assert ok(["memory", "forget", "1", *person]) == f"Retracted #1: {FACT}\n"
    assert ok(["memory", "restore", "1", *person]) == f"Restored #1: {FACT}\n"

    monkeypatch.setattr("pipeline.providers.local.MiniLMEmbedder", WordEmbedder)
    found = ok(["search", *person, "--min-similarity", "0", "tides"])
    assert FACT in found and HOSTILE in found  # the fact, and the project's name as its place


def test_terminal_control_characters_print_visibly(hostile):
    name = "Mal\x1b[31mlory\x1b]0;pwned\x07\x08Eve\x9b"
    visible = "Mal\\x1b[31mlory\\x1b]0;pwned\\x07\\x08Eve\\x9b"
    assert ok(["person", "add", name]) == f"Created {visible} (personal memory ready).\n"
    assert ok(["person", "list"]) == f"{visible}\n"


def test_memory_show_prints_the_block_byte_exact(hostile):
    url, script = hostile
    ok(["person", "add", "Ana"])
    chat = ["chat", "--person", "Ana", "--provider", "scripted", "--script", str(script)]
    ok([*chat, "-m", FACT])
    ok([*chat, "-m", "yes"])
    store = open_store(url)
    with store.read() as session:
        person = get_person(session, "Ana")
        block = load_personal_memory(session, person.personal_engagement_id or -1)
    store.dispose()
    assert f"- {FACT} (noted just now)" in block
    shown = runner.invoke(app, ["memory", "show", "--person", "Ana"])
    assert shown.exit_code == 0
    assert shown.stdout == block + "\n"


def test_memory_show_of_an_empty_memory_prints_nothing_on_stdout(hostile):
    ok(["person", "add", "Ana"])
    shown = runner.invoke(app, ["memory", "show", "--person", "Ana"])
    assert shown.exit_code == 0
    assert shown.stdout == ""
    assert shown.stderr == "(empty: nothing committed yet)\n"


def test_memory_list_shows_the_newest_fifty_and_counts_the_rest(hostile):
    url, _ = hostile
    ok(["person", "add", "Ana"])
    store = open_store(url)
    with store.write() as session:
        engagement = get_person(session, "Ana").personal_engagement_id
        assert engagement is not None
        for n in range(1, 121):
            repo.add_assertion(
                session, engagement, f"fact number {n}", ActorKind.OPERATOR, NormativeForce.HELD
            )
    store.dispose()
    listed = ok(["memory", "list", "--person", "Ana"])
    assert listed_numbers(listed) == list(range(120, 70, -1))
    assert listed.rstrip("\n").splitlines()[-1] == (
        "70 older assertion(s) not shown — pass --limit 0 to list all"
    )
    three = ok(["memory", "list", "--person", "Ana", "--limit", "3"])
    assert listed_numbers(three) == [120, 119, 118]
    assert three.rstrip("\n").splitlines()[-1] == (
        "117 older assertion(s) not shown — pass --limit 0 to list all"
    )
    every = ok(["memory", "list", "--person", "Ana", "--limit", "0"])
    assert listed_numbers(every) == list(range(120, 0, -1)) and "not shown" not in every


def listed_numbers(output: str) -> list[int]:
    return [int(n) for n in re.findall(r"fact number (\d+)", output)]


INVALID_UTF8 = "caf\udce9"  # how Python hands over the bytes b"caf\xe9" from argv


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            [*CHAT, "-m", INVALID_UTF8],
            "error: the message is not valid UTF-8 — send it again as plain UTF-8 text",
        ),
        (
            [*CHAT, "-m", "hello\x00there"],
            "error: the message contains a NUL character — send it again as plain UTF-8 text",
        ),
        (
            ["person", "add", "Ev\x00e"],
            "error: the name contains a NUL character — send it again as plain UTF-8 text",
        ),
        (
            ["project", "add", INVALID_UTF8, "--person", "Ana"],
            "error: the project name is not valid UTF-8 — send it again as plain UTF-8 text",
        ),
        (
            ["memory", "list", "--person", INVALID_UTF8],
            "error: the name is not valid UTF-8 — send it again as plain UTF-8 text",
        ),
        (
            [*CHAT, "--project", "Gar\x00den", "-m", "hi"],
            "error: the name contains a NUL character — send it again as plain UTF-8 text",
        ),
        (
            ["memory", "forget", "99999999999999999999", "--person", "Ana"],
            "error: there is no #99999999999999999999 — see the numbers with `converse memory list --person NAME`",
        ),
        (
            ["memory", "restore", "0", "--person", "Ana"],
            "error: there is no #0 — see the numbers with `converse memory list --person NAME`",
        ),
        (
            ["search", "--person", "Ana", "tea\x00"],
            "error: the query contains a NUL character — send it again as plain UTF-8 text",
        ),
        (
            ["memory", "list", "--person", "[bold]Zoe[/] [/x]"],
            "error: no person named '[bold]Zoe[/] [/x]' — create one with "
            "`converse person add '[bold]Zoe[/] [/x]'`",
        ),
    ],
)
def test_bad_text_is_refused_in_one_line_and_nothing_is_stored(db_url, monkeypatch, args, expected):
    monkeypatch.setenv("CONVERSE_DB_URL", db_url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    before = snapshot(db_url)
    assert one_line_error(runner.invoke(app, args)) == expected
    assert snapshot(db_url) == before


def test_the_conversation_goes_on_after_a_line_of_bad_bytes(hostile):
    ok(["person", "add", "Ana"])
    result = runner.invoke(
        app,
        [*CHAT, "--script", "fixtures/scripted/demo.yaml"],
        input=b"caf\xe9 \xff\nI'm allergic to shellfish\nnul \x00 here\n/quit\n",
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "the message is not valid UTF-8 — send it again as plain UTF-8 text",
        "the message contains a NUL character — send it again as plain UTF-8 text",
    ]
    assert "new, held" in result.stdout


def test_an_endless_line_on_stdin_is_cut_short_and_the_conversation_goes_on(hostile):
    ok(["person", "add", "Ana"])
    result = runner.invoke(
        app,
        [*CHAT, "--script", "fixtures/scripted/demo.yaml"],
        input="x" * 3_000_000 + "\nI'm allergic to shellfish\n" + "y" * 8_000 + "\n/quit\n",
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "the message is longer than 8,000 characters — split it into shorter messages"
    ]
    assert "new, held" in result.stdout
    assert "memory: unchanged" in result.stdout  # 8,000 is within the limit: a turn, no error


def test_a_sqlite_file_in_a_missing_folder_is_refused(tmp_path, monkeypatch):
    missing = tmp_path / "no" / "such" / "x.db"
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{missing}")
    line = one_line_error(runner.invoke(app, ["person", "list"]))
    assert line == (
        f"error: the folder of the database '{missing}' does not exist — create it first, "
        "or set CONVERSE_DB_URL to a file in an existing folder"
    )
    assert not (tmp_path / "no").exists()


def test_the_default_database_folder_is_still_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CONVERSE_DB_URL", raising=False)
    assert runner.invoke(app, ["person", "list"]).exit_code == 0
    assert Path(".converse/converse.db").is_file()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "error: cannot read {path}: No such file or directory — pass an existing "
               "conversation fixture"),
        (b"a: [", "error: {path} is not valid YAML at line 1 — fix the file"),
        (b"\xff\xfe", "error: {path} is not UTF-8 text — save it as UTF-8"),
        (b"conversation: {person: Ana}", "error: {path}: `conversation` needs a person, a project "
         "and messages (each a message:) — see fixtures/scripted/demo.yaml"),
        (b"conversation: {person: Ana, project: P, messages: [hi]}", "error: {path}: "
         "`conversation` needs a person, a project and messages (each a message:) — see "
         "fixtures/scripted/demo.yaml"),
    ],
)  # fmt: skip
def test_a_bad_demo_fixture_is_one_line(tmp_path, content, expected):
    path = tmp_path / "demo.yaml"
    if content is not None:
        path.write_bytes(content)
    line = one_line_error(runner.invoke(app, ["demo", "--script", str(path)]))
    assert line == expected.format(path=path)
