"""`converse chat` and `converse conversation show` print the turn ids `converse explain` takes."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()
SCRIPT = "fixtures/scripted/demo.yaml"
ANA = ["--person", "Ana"]


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0


def test_chat_prints_the_turn_id_that_explain_takes(env):
    said = runner.invoke(
        app, ["chat", *ANA, "--provider", "scripted", "--script", SCRIPT, "-m", "hello there"]
    )
    assert said.exit_code == 0, said.output
    found = re.search(r"turn #(\d+) \(reply #(\d+)\): `converse explain (\d+)`", said.stdout)
    assert found and found.group(1) == found.group(3), said.stdout
    explained = runner.invoke(app, ["explain", found.group(1), *ANA])
    assert explained.exit_code == 0, explained.output
    assert f"Message {found.group(1)}: hello there" in explained.stdout
    shown = runner.invoke(app, ["conversation", "show", *ANA])
    assert shown.exit_code == 0, shown.output
    assert f"#{found.group(1)} " in shown.stdout and f"#{found.group(2)} " in shown.stdout
    data = json.loads(runner.invoke(app, ["conversation", "show", "--json", *ANA]).stdout)
    turns = data["turns"]
    assert [t["role"] for t in turns] == ["operator", "companion"]
    assert turns[0]["turn_id"] == int(found.group(1)) and turns[0]["content"] == "hello there"
    assert data["conversation"]["status"] == "active"  # the preview's fields are kept
