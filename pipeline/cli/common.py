"""What every command group shares: consoles, the store, providers, error translation."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.cli.exits import EXIT_USAGE, exit_code
from pipeline.errors import ConverseError, InvalidMessage
from pipeline.text import check_text, printable

if TYPE_CHECKING:
    from pipeline.providers.registry import Providers
    from pipeline.store import Store

# No :emoji: codes: people's text must print as typed.
console = Console(emoji=False)
err_console = Console(stderr=True, emoji=False)

P = ParamSpec("P")
R = TypeVar("R")


def checked_name(value: str | None) -> str | None:
    """An option callback: a name with bad bytes is refused before any lookup sends it on."""
    if value is not None:
        try:
            check_text(value, "the name")
        except InvalidMessage as exc:
            raise fail(exc.one_line()) from None
    return value


PersonOption = typer.Option(
    ...,
    "--person",
    "-p",
    help="Whose memory.",
    envvar="CONVERSE_PERSON",
    callback=checked_name,
)
DbOption = typer.Option(None, "--db-url", help="Database URL.", envvar="CONVERSE_DB_URL")


def shown(text: object) -> str:
    """Text people typed, made safe to print with Rich: markup escaped, bad bytes replaced.

    Every name, fact, query and message goes through here before it reaches a console.
    """
    return escape(printable(str(text)))


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    err_console.print(f"[bold red]error:[/] {shown(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn ConverseError into one line on stderr and its exit code (pipeline/cli/exits.py).

    The one error translator of the CLI: every command, the harness's included, goes through
    it, so the same kind of error exits with the same code everywhere.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ConverseError as exc:
            raise fail(exc.one_line(), exit_code(exc)) from None

    return wrapper


def store_for(db_url: str | None) -> Store:
    """Open the store named by --db-url / CONVERSE_DB_URL."""
    from pipeline.store import open_store  # SQLAlchemy: only for commands that open a store

    return open_store(db_url)


def default_script() -> Path:
    """The scripted provider's default fixture."""
    from pipeline.config import fixtures_dir  # the settings classes: only when a command runs

    return fixtures_dir() / "scripted" / "demo.yaml"


def providers_for(name: str | None, script: Path | None = None, **settings: Any) -> Providers:
    """Build the named providers (default: the registry's rule, see `default_provider`)."""
    # the pipeline: only when a turn runs
    from pipeline.providers.registry import ProviderOptions, default_provider, make_providers

    options = ProviderOptions(settings=settings, script=script or default_script())
    return make_providers(name or default_provider(), options)


def is_interactive() -> bool:
    """Whether stdin is a terminal (confirmation prompts need one)."""
    return sys.stdin.isatty()
