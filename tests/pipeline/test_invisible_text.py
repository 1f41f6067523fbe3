"""Invisible characters are removed in one step before anything reads a message; a message of
only invisible characters is refused and changes nothing."""

from __future__ import annotations

import pytest
import yaml
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from evals.cli import app
from pipeline.converse import check_message
from pipeline.errors import InvalidMessage
from pipeline.text import check_text, printable, visible

runner = CliRunner()
ZERO_WIDTH = "\u200b\u200b\u200b"
# Each is invisible: zero-width space, word joiner, BOM, soft hyphen, bidi override and
# isolate, left-to-right mark, and an escape character.
INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066", "\u200e", "\x1b"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_are_removed_before_the_message_is_read(char):
    assert check_message(f"I like{char} apples{char}") == "I like apples"


@pytest.mark.parametrize("message", [ZERO_WIDTH, "\u202e\u2066", "\ufeff \u200b\n", "\u3164"])
def test_a_message_of_only_invisible_characters_is_refused(message):
    with pytest.raises(InvalidMessage, match="only invisible characters"):
        check_message(message)


def test_joiners_inside_words_and_emoji_are_kept_and_newlines_and_tabs_too():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    assert visible(f"{family} {persian}\tok\r\nnext") == f"{family} {persian}\tok\nnext"
    assert visible("\u200dhi\u200d") == "hi"  # a joiner that joins nothing is invisible noise


def test_other_text_is_returned_unchanged():
    assert check_text("Café — naïve 日本語 🍎") == "Café — naïve 日本語 🍎"


def test_a_terminal_is_shown_direction_marks_as_escapes():
    assert printable("abc\u202edef") == "abc\\u202edef"


@pytest.fixture
def held(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'inv.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    script = tmp_path / "script.yaml"
    fact = {"intent": "remember_about_me", "params": {"personal_fact": "You like apples"}}
    turns = [
        {"message": "I like apples", **fact},
        {"message": ZERO_WIDTH, "after": "remember_about_me", **fact},
    ]
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    chat = ["chat", "--person", "Ana", "--provider", "scripted", "--script", str(script)]
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, [*chat, "-m", "I like apples"]).exit_code == 0
    return url, chat


def _rows(url):
    engine = create_engine(url)
    with engine.connect() as conn:
        found = {
            table: conn.execute(text(f"select * from {table} order by id")).all()
            for table in ("assertions", "conversation_turns", "inbox")
        }
    engine.dispose()
    return found


def test_an_invisible_chat_message_changes_nothing(held):
    url, chat = held
    before = _rows(url)
    assert [a.force for a in before["assertions"]] == ["held"]
    result = runner.invoke(app, [*chat, "-m", ZERO_WIDTH])
    assert result.exit_code == 2, result.output
    assert "only invisible characters" in result.output
    assert _rows(url) == before


def test_stored_controls_are_shown_as_escapes_by_memory_show_and_markdown_export(tmp_path):
    from pipeline.domain import ActorKind, NormativeForce
    from pipeline.store import assertions as repo
    from pipeline.store import open_store
    from pipeline.store.people import get_person

    url = f"sqlite:///{tmp_path / 'raw.db'}"
    assert runner.invoke(app, ["person", "add", "Ana", "--db-url", url]).exit_code == 0
    store = open_store(url)
    with store.write() as session:  # stored before input removed them, e.g. by an older version
        engagement = get_person(session, "Ana").personal_engagement_id
        raw = "You like \x1b]0;pwned\x07 tea \u202eeet"
        repo.add_assertion(session, engagement, raw, ActorKind.OPERATOR, NormativeForce.COMMITTED)
    store.dispose()
    for args in (["memory", "show"], ["memory", "export", "--format", "markdown"]):
        result = runner.invoke(app, [*args, "--person", "Ana", "--db-url", url])
        assert result.exit_code == 0, result.output
        assert "You like \\x1b]0;pwned\\x07 tea \\u202eeet" in result.output
        assert not {"\x1b", "\x07", "\u202e"} & set(result.output)
