"""What the harness's commands share: consoles and error translation."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console

from pipeline.cli.common import shown
from pipeline.errors import ConverseError

P = ParamSpec("P")
R = TypeVar("R")

# Exit codes: 1 = a gate failed (the run itself worked), 2 = the command could not run.
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def stdout() -> Console:
    """A console on the current stdout (wide tables when it is a log, not a terminal)."""
    return Console(width=None if sys.stdout.isatty() else 160, emoji=False)


def stderr() -> Console:
    """A console on the current stderr."""
    return Console(stderr=True, width=None if sys.stderr.isatty() else 160, emoji=False)


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn ConverseError into one line on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ConverseError as exc:
            stderr().print(
                f"[bold red]error:[/] {shown(exc.one_line())}", highlight=False, soft_wrap=True
            )
            raise typer.Exit(EXIT_USAGE) from None

    return wrapper
