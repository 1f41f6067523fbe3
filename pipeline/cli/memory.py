"""`converse memory ...`: inspect and manage a person's personal memory."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    console,
    err_console,
    fail,
    handles_errors,
    is_interactive,
    shown,
    store_for,
)
from pipeline.cli.exits import EXIT_CHECK
from pipeline.clock import utcnow
from pipeline.config import database_url
from pipeline.domain import Assertion
from pipeline.memory.relative_time import relative_time
from pipeline.store import quick_read
from pipeline.text import printable

if TYPE_CHECKING:
    from pipeline.memory import manage

# The store (and SQLAlchemy with it) is imported inside the commands that write: `memory list`
# reads a SQLite file without it (pipeline/store/quick_read.py) and must start at once.

memory_app = typer.Typer(help="Inspect and manage personal memory.", no_args_is_help=True)

# `memory list` shows this many of the newest assertions unless --limit says otherwise.
DEFAULT_LIST_LIMIT = 50
_FORCE_STYLE = {"committed": "green", "held": "yellow", "retracted": "dim"}
_MAX_NUMBER = 2**63 - 1


def _checked_number(value: int) -> int:
    # Past 64 bits the database driver raises OverflowError instead of finding nothing.
    if not 1 <= value <= _MAX_NUMBER:
        raise fail(f"there is no #{value} — see the numbers with `converse memory list`")
    return value


NumberArgument = typer.Argument(
    ..., help="The number `memory list` shows.", callback=_checked_number
)


def assertion_table(assertions: list[Assertion], title: str, tag: str = "#") -> Table:
    """A table of assertions with their tagged numbers (`#3`, `notes#3`), force and age."""
    table = Table(title=title, title_justify="left")
    for column in ("number", "content", "state", "by", "noted"):
        table.add_column(column)
    now = utcnow()
    for a in assertions:
        style = _FORCE_STYLE[a.force.value]
        table.add_row(
            f"{tag}{a.display_number}",
            shown(a.content),
            f"[{style}]{a.force.value}[/]",
            a.actor.value,
            relative_time(a.created_at, now),
        )
    return table


@memory_app.command("list")
@handles_errors
def memory_list(
    person: str = PersonOption,
    all_: bool = typer.Option(False, "--all", help="Include retracted assertions."),
    limit: int = typer.Option(
        DEFAULT_LIST_LIMIT, "--limit", min=0, help="Show the newest N (0 shows every one)."
    ),
    db_url: str | None = DbOption,
) -> None:
    """List personal assertions, newest first (held and committed; --all adds retracted)."""
    found = quick_read.personal_assertions(db_url or database_url(), person, all_)
    if found is None:
        from pipeline.memory import manage
        from pipeline.store.people import get_person

        with store_for(db_url).read() as session:
            found = manage.personal_assertions(session, get_person(session, person), all_)
    if not found:
        console.print(f"Nothing is stored in {shown(person)}'s personal memory.", highlight=False)
        return
    print_newest(found, limit, f"{shown(person)}'s personal memory", "#")


def print_newest(found: list[Assertion], limit: int, title: str, tag: str) -> None:
    """The newest `limit` assertions (0: all) as a table, then how many older ones are hidden."""
    rows = found[:limit] if limit else found
    console.print(assertion_table(rows, title, tag))
    hidden = len(found) - len(rows)
    if hidden:
        console.print(
            f"{hidden:,} older assertion(s) not shown — pass --limit 0 to list all",
            highlight=False,
        )


@memory_app.command("show")
@handles_errors
def memory_show(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Print the personal-memory block exactly as a project turn's prompt gets it."""
    from pipeline.memory import load_personal_memory
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        found = get_person(session, person)
        block = load_personal_memory(session, found.personal_engagement_id or -1)
    if not block:
        err_console.print("(empty: nothing committed yet)", highlight=False)
        return
    # Straight to stdout: a console would wrap long lines and read brackets as markup.
    sys.stdout.write(block + "\n")
    sys.stdout.flush()


@memory_app.command("forget")
@handles_errors
def memory_forget(
    number: int = NumberArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Retract #NUMBER (reversible with `restore`)."""
    from pipeline.memory import manage
    from pipeline.store.people import get_person

    with store_for(db_url).write() as session:
        done = manage.retract(session, get_person(session, person), number)
    console.print(f"Retracted #{done.display_number}: {shown(done.content)}", highlight=False)


@memory_app.command("restore")
@handles_errors
def memory_restore(
    number: int = NumberArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Restore a retracted #NUMBER as committed."""
    from pipeline.memory import manage
    from pipeline.store.people import get_person

    with store_for(db_url).write() as session:
        done = manage.restore(session, get_person(session, person), number)
    console.print(f"Restored #{done.display_number}: {shown(done.content)}", highlight=False)


@memory_app.command("erase")
@handles_errors
def memory_erase(
    numbers: list[int],
    person: str = PersonOption,
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    db_url: str | None = DbOption,
) -> None:
    """Delete assertions PERMANENTLY (asks first unless --yes)."""
    from pipeline.memory import manage
    from pipeline.store.people import get_person

    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
        targets = [manage.numbered(session, found, n) for n in numbers]  # validate first
    if not yes:
        confirm_erase(targets, "#")
    report_erasure(manage.erase_numbers(store, person, numbers))


def confirm_erase(targets: list[Assertion], tag: str) -> None:
    """Ask before a permanent erase; refuse without a terminal, exit 1 on no."""
    if not is_interactive():
        raise fail("erase needs confirmation — run it in a terminal or pass --yes")
    # The prompt is click's, not Rich's: no markup to escape, but control characters still.
    listing = "; ".join(f"{tag}{a.display_number} {printable(a.content)}" for a in targets)
    if not typer.confirm(f"Permanently erase {listing}? This cannot be undone"):
        console.print("Nothing erased.")
        raise typer.Exit(EXIT_CHECK)


def report_erasure(done: manage.Erasure) -> None:
    """How many were erased, and whether old copies may linger in the SQLite WAL."""
    console.print(f"Erased {len(done.erased)} assertion(s) permanently.")
    if not done.checkpointed:
        console.print(
            "Another connection was reading, so old copies may stay in the -wal file until "
            "the next checkpoint; run the erase again when it is idle."
        )
