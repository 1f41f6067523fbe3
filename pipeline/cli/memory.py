"""`converse memory ...`: inspect and manage a person's personal memory."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
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
    shown,
    store_for,
)
from pipeline.cli.history_table import SET_ASIDE
from pipeline.cli.memory_query import query_command
from pipeline.cli.params import id_argument, optional_ids
from pipeline.cli.shelf_commands import ShelfKind, add_shelf_commands, where_option
from pipeline.clock import utcnow
from pipeline.files import output_path, write_output
from pipeline.memory.relative_time import relative_time
from pipeline.memory.who import who
from pipeline.text import printable

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pipeline.domain import Assertion
    from pipeline.memory import manage
    from pipeline.store import Store

# The store (and SQLAlchemy with it) is imported inside the commands that write: `memory list`
# reads a SQLite file without it (pipeline/store/quick_read.py) and must start at once.

memory_app = typer.Typer(help="Inspect and manage personal memory.", no_args_is_help=True)

# `memory list` shows this many of the newest assertions unless --limit says otherwise.
DEFAULT_LIST_LIMIT = 50
_FORCE_STYLE = {"committed": "green", "held": "yellow", "retracted": "dim"}
_SHOWN_BY = "see the numbers with `converse memory list --person NAME`"
NumberArgument = id_argument("#", _SHOWN_BY, "The number `memory list` shows.")
NumbersArgument = id_argument("#", _SHOWN_BY, "The numbers `memory list` shows.")


def assertion_table(assertions: list[Assertion], title: str, tag: str = "#") -> Table:
    """A table of assertions with their tagged numbers (`#3`, `notes#3`), force and age."""
    table = Table(title=title, title_justify="left")
    for column in ("number", "content", "state", "who", "noted"):
        table.add_column(column)
    now = utcnow()
    for a in assertions:
        style = _FORCE_STYLE[a.force.value]
        state = f"[{style}]{a.force.value}[/]"
        if a.deleted_at is not None:
            state += f" [dim]({SET_ASIDE} {relative_time(a.deleted_at, now)})[/]"
        if a.pinned:
            state += " (pinned)"
        table.add_row(
            f"{tag}{a.display_number}",
            shown(a.content),
            state,
            who(a.actor.value),
            relative_time(a.created_at, now),
        )
    return table


@memory_app.command("list")
@handles_errors
def memory_list(
    person: str = PersonOption,
    all_: bool = typer.Option(False, "--all", help="Include retracted assertions."),
    deleted: bool = typer.Option(
        False, "--deleted", help="Include assertions the lifecycle sweep set aside."
    ),
    limit: int = typer.Option(
        DEFAULT_LIST_LIMIT, "--limit", min=0, help="Show the newest N (0 shows every one)."
    ),
    db_url: str | None = DbOption,
) -> None:
    """List personal assertions, newest first (held and committed; --all adds retracted)."""
    from pipeline.config import database_url  # the settings classes: only when it runs
    from pipeline.store import quick_read

    found = quick_read.personal_assertions(db_url or database_url(), person, all_, deleted)
    if found is None:
        from pipeline.memory import manage
        from pipeline.store.people import get_person

        with store_for(db_url).read() as session:
            found = manage.personal_assertions(
                session, get_person(session, person), all_, include_deleted=deleted
            )
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
    # Straight to stdout: a console would wrap long lines and read brackets as markup; control
    # characters and direction marks stored before they were removed at input show as escapes.
    sys.stdout.write(printable(block) + "\n")
    sys.stdout.flush()


def _personal(session: Session, person: str) -> manage.Shelf:
    from pipeline.memory import manage
    from pipeline.store.people import get_person

    return manage.personal_shelf(get_person(session, person))


def _erase(store: Store, numbers: list[int], mentions: list[str], person: str) -> manage.Erasure:
    from pipeline.english.lexicon import ENGLISH  # the CLI speaks English
    from pipeline.memory import manage

    return manage.erase_numbers(store, person, numbers, mentions, ENGLISH.stop_words)


def _mentioned(
    session: Session, targets: list[Assertion], mentions: Sequence[str], person: str
) -> int:
    """The person's turns that mention one of the texts, beyond those the facts' own
    erasure blanks."""
    from pipeline.store.erasure import linked_turns, mentioning
    from pipeline.store.people import get_person

    linked = set(linked_turns(session, [a.id for a in targets]))
    return len(set(mentioning(session, get_person(session, person).id, mentions)) - linked)


PERSONAL = ShelfKind(
    tag="#",
    noun="assertions",
    where=(where_option("person", PersonOption),),
    find=_personal,
    erase=_erase,
    number=NumberArgument,
    numbers=NumbersArgument,
    optional_numbers=optional_ids(
        "#", _SHOWN_BY, "The numbers `memory list` shows (none: only the --mentions turns)."
    ),
    count_mentions=_mentioned,
)
add_shelf_commands(memory_app, PERSONAL, "forget", "restore", "pin", "unpin")


@memory_app.command("category")
@handles_errors
def memory_category(
    number: int = NumberArgument,
    name: str = typer.Argument(..., help="A category of pipeline/categories.yaml."),
    person: str = PersonOption,
    db_url: str | None = DbOption,
) -> None:
    """File #NUMBER under another category (its context mode decides where it is shown)."""
    from pipeline.memory import manage

    with store_for(db_url).write() as session:
        done = manage.category_on(session, _personal(session, person), number, name)
    console.print(
        f"#{done.display_number} is now in {shown(done.category)}: {shown(done.content)}",
        highlight=False,
    )


memory_app.command("query")(handles_errors(query_command))


add_shelf_commands(memory_app, PERSONAL, "importance", "history")


@memory_app.command("related")
@handles_errors
def memory_related(
    number: int = NumberArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """The facts #NUMBER is related to, strongest first, with each edge's strength."""
    from pipeline.cli.memory_related import print_related

    print_related(number, person, db_url)


@memory_app.command("export")
@handles_errors
def memory_export(
    person: str = PersonOption,
    format_: str = typer.Option(
        "json", "--format", help="json (complete) or markdown.", case_sensitive=False
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write to this file (atomically) instead of stdout."
    ),
    db_url: str | None = DbOption,
) -> None:
    """Export everything stored about a person, each fact with its history."""
    kind = format_.lower()
    if kind not in ("json", "markdown"):
        raise fail(f"unknown export format {format_!r} — use --format json or --format markdown")
    if output is not None:
        output_path(output, "export")  # refused before the database is read
    from pipeline.memory.export import as_json, as_markdown, export_person
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        data = export_person(session, get_person(session, person))
    # JSON escapes control characters itself; markdown is read, so they are shown as escapes.
    text = as_json(data) if kind == "json" else printable(as_markdown(data))
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_output(output, text, "export")
    err_console.print(f"Exported {shown(data['person'])} to {shown(output)}.", highlight=False)


add_shelf_commands(memory_app, PERSONAL, "erase")
