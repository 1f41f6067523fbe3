"""Who did what, in the same plain words in `memory list`, `memory history` and the export."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()


def test_history_and_list_say_who_in_plain_words(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'who.db'}")
    script = tmp_path / "script.yaml"
    fact = {"intent": "remember_about_me", "params": {"personal_fact": "You like apples"}}
    turns = [
        {"message": "I like apples", **fact},
        {"message": "yes", "after": "remember_about_me", **fact},
    ]
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    chat = ["chat", "-p", "Ana", "--provider", "scripted", "--script", str(script), "-m"]
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    for message in ("I like apples", "yes"):
        assert runner.invoke(app, [*chat, message]).exit_code == 0
    assert runner.invoke(app, ["memory", "pin", "1", "-p", "Ana"]).exit_code == 0

    history = runner.invoke(app, ["memory", "history", "1", "-p", "Ana"]).output
    rows = [line for line in history.splitlines() if line.startswith("│ 20")]
    assert [r.split("│")[3].strip() for r in rows] == [
        "companion, from your words",  # offered to keep what the person said
        "you, in chat",  # the person's "yes"
        "you, at the command line",  # memory pin
    ]
    listed = runner.invoke(app, ["memory", "list", "-p", "Ana"]).output
    assert "companion, from your words" in listed and "│ companion " not in listed
    exported = runner.invoke(app, ["memory", "export", "-p", "Ana", "--format", "markdown"])
    assert "by you, in chat" in exported.output and "by operator" not in exported.output
