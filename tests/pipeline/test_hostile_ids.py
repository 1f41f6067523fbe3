"""Ids and numbers past what a 64-bit column holds: one line, exit 2, in every command."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()
HUGE = str(2**63)
PERSON = ["--person", "Ana"]

# Every command that takes an id or a display number, with HUGE in that place.
COMMANDS = [
    ["explain", HUGE, *PERSON],
    ["conversation", "show", "--id", HUGE, *PERSON],
    ["conversation", "close", "--id", HUGE, *PERSON],
    ["conversation", "review", "--id", HUGE, "--confirm", *PERSON],
    ["conversation", "review", "--memory", HUGE, "--confirm", *PERSON],
    ["consent", "accept", HUGE, *PERSON],
    ["consent", "reject", HUGE, *PERSON],
    ["memory", "erase", "1", HUGE, "--yes", *PERSON],
    ["memory", "forget", HUGE, *PERSON],
    ["memory", "history", HUGE, *PERSON],
    ["memory", "related", HUGE, *PERSON],
    ["notes", "erase", HUGE, "--yes", "--project", "Garden", *PERSON],
    ["notes", "pin", HUGE, "--project", "Garden", *PERSON],
]


@pytest.fixture
def ana(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'ids.db'}")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Garden", *PERSON]).exit_code == 0


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]) + " " + a[2][:6])
def test_an_id_past_64_bits_is_one_line_naming_it(ana, args):
    result = runner.invoke(app, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert len(lines) == 1 and HUGE in lines[0] and "there is no" in lines[0], result.output


def _leaves(command, path=()):
    if hasattr(command, "list_commands"):
        for name in command.list_commands(None):
            yield from _leaves(command.get_command(None, name), (*path, name))
    else:
        yield path, command


def test_every_id_and_number_parameter_uses_the_one_id_check():
    import typer

    unchecked = [
        f"{' '.join(path)} {param.name}"
        for path, command in _leaves(typer.main.get_command(app))
        for param in command.params
        if param.type_descriptor.annotation in (int, list[int])
        and (param.name.endswith("_id") or param.name in ("number", "numbers"))
        and getattr(param.callback, "__qualname__", "") != "_checker.<locals>.check"
    ]
    assert unchecked == []
