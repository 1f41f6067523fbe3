"""The seven commands `memory` and `notes` share are one implementation over a shelf: they
take the same arguments, say the same things (only the tag differs) and act alike."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from evals.cli import app
from pipeline.cli.shelf_commands import SHARED
from pipeline.domain import ActorKind, NormativeForce
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import get_person, get_project

runner = CliRunner()
ANA = ["--person", "Ana"]
GARDEN = [*ANA, "--project", "Garden"]
KINDS = [
    ("memory", ANA, "#", "Ana's personal memory", ""),
    ("notes", GARDEN, "notes#", "project 'Garden'", "bed of "),
]


@pytest.fixture
def shelves(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 's.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Garden", *ANA]).exit_code == 0
    store = open_store(url)
    with store.write() as session:
        ana = get_person(session, "Ana")
        garden = get_project(session, ana, "Garden").id
        for text in ("likes tea", "likes figs"):
            committed = NormativeForce.COMMITTED
            repo.add_assertion(
                session, ana.personal_engagement_id, text, ActorKind.OPERATOR, committed
            )
            repo.add_assertion(session, garden, f"bed of {text}", ActorKind.OPERATOR, committed)
    store.dispose()


def _command(group: str, name: str) -> Any:
    root: Any = typer.main.get_command(app)
    command = root.get_command(None, group).get_command(None, name)
    assert command is not None, f"{group} {name}"
    return command


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_commands_read_alike(name):
    memory, notes = _command("memory", name), _command("notes", name)
    assert (memory.help or "").replace("#", "notes#").replace("assertions", "notes") == notes.help
    # --project names the notes' shelf; --mentions is the personal erase's own
    mine = [p.name for p in memory.params if p.name != "mentions"]
    theirs = [p.name for p in notes.params if p.name != "project"]
    assert mine == theirs


@pytest.mark.parametrize(("group", "where", "tag", "shelf", "prefix"), KINDS)
def test_importance_history_and_erase_act_alike(shelves, group, where, tag, shelf, prefix):
    said = runner.invoke(app, [group, "importance", "2", "0.9", *where])
    assert said.exit_code == 0, said.output
    assert said.output.strip() == f"{tag}2 now has importance 0.9: {prefix}likes figs"
    history = runner.invoke(app, [group, "history", "2", *where])
    assert f"History of {tag}2 in {shelf}" in history.output
    assert "importance 0.5" in history.output and "importance 0.9" in history.output

    refused = runner.invoke(app, [group, "erase", "1", *where])
    assert refused.exit_code == 2
    assert "erase needs confirmation — run it in a terminal or pass --yes" in refused.output
    erased = runner.invoke(app, [group, "erase", "1", *where, "--yes"])
    assert erased.exit_code == 0, erased.output
    assert "Erased 1 assertion(s) permanently." in erased.output
    listed = runner.invoke(app, [group, "list", "--all", *where]).output
    assert f"{prefix}likes tea" not in listed and f"{prefix}likes figs" in listed
    missing = runner.invoke(app, [group, "history", "9", *where])
    assert missing.exit_code == 2
    assert f"{shelf} has no {tag}9" in missing.output
