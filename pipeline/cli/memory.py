"""`converse memory ...`: inspect and manage a person's personal memory."""

from __future__ import annotations

import typer
from rich.table import Table

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    console,
    fail,
    handles_errors,
    is_interactive,
    store_for,
)
from pipeline.clock import utcnow
from pipeline.domain import Assertion
from pipeline.memory import load_personal_memory, manage
from pipeline.memory.relative_time import relative_time
from pipeline.store.people import get_person

memory_app = typer.Typer(help="Inspect and manage personal memory.", no_args_is_help=True)

_FORCE_STYLE = {"committed": "green", "held": "yellow", "retracted": "dim"}


def assertion_table(assertions: list[Assertion], title: str) -> Table:
    """A table of assertions with their numbers, force and age."""
    table = Table(title=title, title_justify="left")
    for column in ("#", "content", "state", "by", "noted"):
        table.add_column(column)
    now = utcnow()
    for a in assertions:
        style = _FORCE_STYLE[a.force.value]
        table.add_row(
            str(a.display_number),
            a.content,
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
    db_url: str | None = DbOption,
) -> None:
    """List personal assertions (held and committed; --all adds retracted)."""
    with store_for(db_url).read() as session:
        found = manage.personal_assertions(session, get_person(session, person), all_)
    if not found:
        console.print(f"Nothing is stored in {person}'s personal memory.", highlight=False)
        return
    console.print(assertion_table(found, f"{person}'s personal memory"))


@memory_app.command("show")
@handles_errors
def memory_show(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Print the personal-memory block exactly as a project turn's prompt gets it."""
    with store_for(db_url).read() as session:
        found = get_person(session, person)
        block = load_personal_memory(session, found.personal_engagement_id or -1)
    console.print(block or "(empty: nothing committed yet)", highlight=False, markup=False)


@memory_app.command("forget")
@handles_errors
def memory_forget(number: int, person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Retract #NUMBER (reversible with `restore`)."""
    with store_for(db_url).write() as session:
        done = manage.retract(session, get_person(session, person), number)
    console.print(f"Retracted #{done.display_number}: {done.content}", highlight=False)


@memory_app.command("restore")
@handles_errors
def memory_restore(number: int, person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Restore a retracted #NUMBER as committed."""
    with store_for(db_url).write() as session:
        done = manage.restore(session, get_person(session, person), number)
    console.print(f"Restored #{done.display_number}: {done.content}", highlight=False)


@memory_app.command("erase")
@handles_errors
def memory_erase(
    numbers: list[int],
    person: str = PersonOption,
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    db_url: str | None = DbOption,
) -> None:
    """Delete assertions PERMANENTLY (asks first unless --yes)."""
    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
        targets = [manage.numbered(session, found, n) for n in numbers]  # validate first
    if not yes:
        if not is_interactive():
            raise fail("erase needs confirmation — run it in a terminal or pass --yes")
        listing = "; ".join(f"#{a.display_number} {a.content}" for a in targets)
        if not typer.confirm(f"Permanently erase {listing}? This cannot be undone"):
            console.print("Nothing erased.")
            raise typer.Exit(1)
    done = manage.erase_numbers(store, person, numbers)
    console.print(f"Erased {len(done.erased)} assertion(s) permanently.")
    if not done.checkpointed:
        console.print(
            "Another connection was reading, so old copies may stay in the -wal file until "
            "the next checkpoint; run the erase again when it is idle."
        )
