"""The CLI: memory management, the demo, and one-line errors for every bad input."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from evals.cli import app
from pipeline.english import ENGLISH
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import get_person

runner = CliRunner()
SCRIPT = "fixtures/scripted/demo.yaml"
CHAT = ["chat", "--person", "Ana", "--provider", "scripted", "--script", SCRIPT]


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "200")  # no wrapping of rich output
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert (
        runner.invoke(app, ["project", "add", "Backyard garden", "--person", "Ana"]).exit_code == 0
    )
    return url


def say(message, *extra):
    return runner.invoke(
        app,
        [
            *CHAT,
            "-m",
            message,
            *extra,
        ],
    )


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
    assert lines[0].startswith("error: ")
    return lines[0]


def test_chat_one_message_shows_reply_and_memory_change(env):
    result = say("I'm allergic to shellfish")
    assert result.exit_code == 0, result.output
    assert "I'll remember that you're allergic to all shellfish — is that right?" in result.output
    assert 'memory: #1 "You\'re allergic to all shellfish": new, held' in result.output


def test_memory_list_show_forget_restore_erase(env):
    say("I'm allergic to shellfish")
    say("that's right")
    listed = runner.invoke(app, ["memory", "list", "--person", "Ana"])
    assert "You're allergic to all shellfish" in listed.output and "committed" in listed.output
    shown = runner.invoke(app, ["memory", "show", "--person", "Ana"])
    assert "PERSONAL MEMORY" in shown.output
    assert "- You're allergic to all shellfish (noted just now)" in shown.output

    assert runner.invoke(app, ["memory", "forget", "1", "--person", "Ana"]).exit_code == 0
    shown = runner.invoke(app, ["memory", "show", "--person", "Ana"])
    assert "shellfish" not in shown.output
    assert "retracted" in runner.invoke(app, ["memory", "list", "--all", "--person", "Ana"]).output

    assert runner.invoke(app, ["memory", "restore", "1", "--person", "Ana"]).exit_code == 0
    assert "shellfish" in runner.invoke(app, ["memory", "show", "--person", "Ana"]).output

    refused = runner.invoke(app, ["memory", "erase", "1", "--person", "Ana"], input="n\n")
    assert refused.exit_code == 2  # no terminal to confirm in: a usage error
    erased = runner.invoke(app, ["memory", "erase", "1", "--person", "Ana", "--yes"])
    assert erased.exit_code == 0, erased.output
    store = open_store(env)
    with store.read() as session:
        person = get_person(session, "Ana")
        assert repo.list_assertions(session, person.personal_engagement_id) == []
    store.dispose()


def test_demo_walks_the_whole_conversation(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    for expected in (
        "new, held",
        "amended, still held",
        "held → committed",
        "You want me to stop using",
        "committed → retracted",
    ):
        assert expected in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            [*CHAT, "-m", "   "],
            "error: the message is empty — type something to say",
        ),
        (
            [
                *CHAT,
                "-m",
                "x" * 8001,
            ],
            "error: the message is 8,001 characters; the limit is 8,000 — split it into shorter messages",
        ),
        (
            ["chat", "--person", "Zoe", "--provider", "scripted", "--script", SCRIPT, "-m", "hi"],
            "error: no person named 'Zoe' — create one with `converse person add 'Zoe'`",
        ),
        (
            [
                "chat",
                "--person",
                "Ana",
                "--project",
                "Moon base",
                "--provider",
                "scripted",
                "--script",
                SCRIPT,
                "-m",
                "hi",
            ],
            "error: Ana has no project named 'Moon base' — create it with "
            "`converse project add 'Moon base' --person 'Ana'`",
        ),
        (
            ["memory", "forget", "1", "--person", "Ana"],
            "error: nothing is stored in Ana's personal memory — there is nothing to change",
        ),
        (
            ["memory", "forget", "7", "--person", "Ana"],
            "error: nothing is stored in Ana's personal memory — there is nothing to change",
        ),
        (
            ["memory", "list", "--person", "Zoe"],
            "error: no person named 'Zoe' — create one with `converse person add 'Zoe'`",
        ),
        (
            ["chat", "--person", "Ana", "--provider", "gpt", "-m", "hi"],
            "error: unknown provider 'gpt' — choose one of: local, local-reader, claude, scripted, openai-compatible, local-llm",
        ),
    ],
)
def test_bad_input_gives_one_line_and_leaves_the_store_unchanged(env, args, expected):
    before = snapshot(env)
    result = runner.invoke(app, args)
    assert one_line_error(result) == expected
    assert snapshot(env) == before


def test_forget_of_a_missing_number_when_memory_exists(env):
    say("I'm allergic to shellfish")
    before = snapshot(env)
    line = one_line_error(runner.invoke(app, ["memory", "forget", "9", "--person", "Ana"]))
    assert (
        line
        == "error: Ana's personal memory has no #9 — see the numbers with `converse memory list --person 'Ana'`"
    )
    assert snapshot(env) == before


def test_erase_without_a_terminal_or_yes_refuses(env):
    say("I'm allergic to shellfish")
    before = snapshot(env)
    line = one_line_error(runner.invoke(app, ["memory", "erase", "1", "--person", "Ana"]))
    assert "--yes" in line
    assert snapshot(env) == before


def test_unopenable_database_url(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    line = one_line_error(runner.invoke(app, ["memory", "list", "--person", "Ana"]))
    assert line.startswith("error: cannot open the database")
    assert line.endswith("check CONVERSE_DB_URL and that the database server is running")


def test_interactive_chat_reads_lines_until_quit_and_reports_bad_ones(env):
    result = runner.invoke(
        app,
        ["chat", "--person", "Ana", "--provider", "scripted", "--script", SCRIPT],
        input="I'm allergic to shellfish\n   \nthat's right\n/quit\nnever reached\n",
    )
    assert result.exit_code == 0, result.output
    assert "new, held" in result.output
    assert "the message is empty" in result.output
    assert "held → committed" in result.output
    assert "never reached" not in result.output


def test_an_older_database_names_the_upgrade_command_and_upgrades(env):
    from alembic import command

    from pipeline.store.engine import alembic_config

    engine = create_engine(env)
    with engine.begin() as conn:
        cfg = alembic_config(env)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "-1")
    engine.dispose()
    before = snapshot(env)
    line = one_line_error(runner.invoke(app, ["memory", "list", "--person", "Ana"]))
    assert line.endswith("run `converse db upgrade` (your data is kept)")
    assert snapshot(env) == before
    upgraded = runner.invoke(app, ["db", "upgrade"])
    assert upgraded.exit_code == 0 and "Migrated from" in upgraded.output
    assert runner.invoke(app, ["memory", "list", "--person", "Ana"]).exit_code == 0


def test_status_list_and_clear(env):
    from pipeline.clock import utcnow
    from pipeline.memory.status import checked_note, write_note

    store = open_store(env)
    with store.write() as session:
        ana = get_person(session, "Ana")
        write_note(
            session,
            ana.id,
            checked_note("the car", "At the shop until Friday", ENGLISH.topic_openers),
            at=utcnow(),
            written_by="t",
        )
    listed = runner.invoke(app, ["status", "list", "--person", "Ana"])
    assert listed.exit_code == 0 and "At the shop until Friday" in listed.stdout
    as_json = runner.invoke(app, ["status", "list", "--person", "Ana", "--json"])
    assert '"topic": "car"' in as_json.stdout
    cleared = runner.invoke(app, ["status", "clear", "--person", "Ana", "--topic", "The Car"])
    assert cleared.exit_code == 0 and "Cleared 1 status note(s) on 'car' for Ana." in cleared.stdout
    assert (
        "No status notes for Ana."
        in runner.invoke(app, ["status", "list", "--person", "Ana"]).stdout
    )
    missing = runner.invoke(app, ["status", "list", "--person", "Zed"])
    assert missing.exit_code != 0
