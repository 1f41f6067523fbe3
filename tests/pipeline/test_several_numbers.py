"""forget, restore, pin, unpin and erase take one number or several, for facts and notes
alike; several are changed together or not at all."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from evals.cli import app
from pipeline.domain import ActorKind, NormativeForce
from pipeline.store import assertions as repo
from pipeline.store import open_store
from pipeline.store.people import get_person, get_project

runner = CliRunner()
ANA = ["--person", "Ana"]
GARDEN = [*ANA, "--project", "Garden"]


@pytest.fixture
def facts(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'n.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Garden", *ANA]).exit_code == 0
    store = open_store(url)
    with store.write() as session:
        ana = get_person(session, "Ana")
        garden = get_project(session, ana, "Garden").id
        for text in ("likes tea", "likes figs", "likes rain"):
            committed = NormativeForce.COMMITTED
            repo.add_assertion(
                session, ana.personal_engagement_id, text, ActorKind.OPERATOR, committed
            )
            repo.add_assertion(session, garden, f"bed of {text}", ActorKind.OPERATOR, committed)
    store.dispose()


def _ok(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def _states(args) -> str:
    return _ok([*args, "--all"])


@pytest.mark.parametrize(
    ("group", "where", "tag"), [("memory", ANA, "#"), ("notes", GARDEN, "notes#")]
)
def test_several_numbers_are_changed_together(facts, group, where, tag):
    said = _ok([group, "forget", "1", "2", *where])
    assert f"Retracted {tag}1" in said and f"Retracted {tag}2" in said
    assert "Restored" in _ok([group, "restore", "1", "2", *where])
    pinned = _ok([group, "pin", "2", "3", "3", *where])
    assert pinned.count("Pinned") == 2  # a number given twice counts once
    assert _ok([group, "unpin", "2", "3", *where]).count("Unpinned") == 2


@pytest.mark.parametrize(("group", "where"), [("memory", ANA), ("notes", GARDEN)])
def test_one_bad_number_changes_none(facts, group, where):
    before = _ok([group, "list", *where, "--all"])
    result = runner.invoke(app, [group, "forget", "1", "9", *where])
    assert result.exit_code == 2, result.output
    assert "9" in result.output
    assert _ok([group, "list", *where, "--all"]) == before  # #1 is not retracted either


def test_every_command_over_numbers_alone_takes_several():
    root = typer.main.get_command(app)
    for group in ("memory", "notes"):
        commands = root.get_command(None, group)
        for name in ("forget", "restore", "pin", "unpin", "erase"):
            (numbers,) = [
                p for p in commands.get_command(None, name).params if p.name.startswith("number")
            ]
            assert numbers.type_descriptor.annotation == list[int], f"{group} {name}"
