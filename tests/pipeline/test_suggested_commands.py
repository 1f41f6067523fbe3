"""Every command the companion or an error suggests runs as printed.

The suggestions are collected from the source: every `converse ...` in backticks in a string
that is not a docstring (the replies of pipeline/providers/replies.py, error hints, command
output), and the commands the memory shelves name. Each is parsed by the real command line app with no CONVERSE_*
variable set, so a suggestion that leaves out a required option (`--person`) fails here.
Upper-case words are placeholders the reader fills in (NAME, N, RUN_ID); a value the code
formats in is given as a placeholder too.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from evals.cli import app

ROOT = Path(__file__).resolve().parents[2]
FORMATTED = "\x00"  # where an f-string formats a value in
_BACKTICKED = re.compile(r"`(converse [^`]*)`")
_NUMBERS = {"N", "NUMBER", "TURN", "TURN_ID", "ID"}


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield (
                node.lineno,
                "".join(
                    str(v.value) if isinstance(v, ast.Constant) else FORMATTED for v in node.values
                ),
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


def suggestions() -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for path in sorted([*ROOT.glob("pipeline/**/*.py"), *ROOT.glob("evals/**/*.py")]):
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            for command in _BACKTICKED.findall(text):
                found.setdefault(" ".join(command.split()), f"{path.relative_to(ROOT)}:{line}")
    for shelf in _shelves():
        found[shelf.list_command] = found[shelf.restore_command] = "pipeline/memory/manage.py"
    return sorted(found.items())


def _shelves() -> list:
    from pipeline.domain import Engagement, Person
    from pipeline.memory.manage import personal_shelf, project_shelf

    ana = Person.model_construct(id=1, name="Ana O'Neil", personal_engagement_id=1)
    garden = Engagement.model_construct(id=2, name="Back garden")
    return [personal_shelf(ana), project_shelf(ana, garden)]


def _argv(command: str) -> list[str]:
    command = re.sub(r"\[[^\]]*\]", "", command)  # optional parts
    command = re.sub(r"(--[\w-]+)\|--[\w-]+", r"\1", command)  # the first of alternatives
    words = shlex.split(command.replace(FORMATTED, "X"))[1:]
    return [
        "1" if w in _NUMBERS or (w == "X" and i and words[i - 1] != "--person") else w
        for i, w in enumerate(words)
    ]


def _parses(argv: list[str]) -> None:
    command = typer.main.get_command(app)
    while argv and hasattr(command, "list_commands"):
        sub = command.get_command(None, argv[0])
        if sub is None:
            break
        command, argv = sub, argv[1:]
    if hasattr(command, "list_commands"):
        assert not argv, f"no such command {argv[0]!r}"
        return  # a group named on its own: it prints its commands
    command.make_context(command.name or "converse", list(argv))


@pytest.fixture(autouse=True)
def _no_defaults_from_the_environment(monkeypatch):
    for name in list(os.environ):
        if name.startswith("CONVERSE_"):
            monkeypatch.delenv(name)


def test_suggestions_are_found():
    assert len(suggestions()) > 20


# Hints in modules under rework elsewhere; strict, so each fails here once it is fixed.
_PENDING: dict[str, str] = {}


def _cases() -> list:
    return [
        pytest.param(command, where, marks=pytest.mark.xfail(reason=_PENDING[file], strict=True))
        if (file := where.split(":")[0]) in _PENDING
        else (command, where)
        for command, where in suggestions()
    ]


@pytest.mark.parametrize(("command", "where"), _cases(), ids=lambda v: v[:60])
def test_a_suggested_command_runs_as_printed(command, where):
    try:
        _parses(_argv(command))
    except typer.Exit as exc:
        assert exc.exit_code == 0, f"{where}: {command!r}"
    except Exception as exc:  # click's usage errors
        pytest.fail(f"{where}: `{command}` does not run as printed: {exc}")
