"""`converse memory ...`: inspect and manage a person's personal memory."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
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
    is_interactive,
    shown,
    store_for,
)
from pipeline.cli.exits import EXIT_CHECK
from pipeline.cli.memory_query import query_command
from pipeline.cli.params import id_argument
from pipeline.clock import utcnow
from pipeline.config import database_url
from pipeline.domain import Assertion, HistoryEntry, HistoryOp
from pipeline.memory.relative_time import relative_time
from pipeline.memory.who import who
from pipeline.store import quick_read
from pipeline.text import check_text, printable

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pipeline.memory import manage

# Finds the shelf (personal memory, a project's notes) a command works on, in its session.
ShelfOf = Callable[["Session"], "manage.Shelf"]

# The store (and SQLAlchemy with it) is imported inside the commands that write: `memory list`
# reads a SQLite file without it (pipeline/store/quick_read.py) and must start at once.

memory_app = typer.Typer(help="Inspect and manage personal memory.", no_args_is_help=True)

# `memory list` shows this many of the newest assertions unless --limit says otherwise.
DEFAULT_LIST_LIMIT = 50
_FORCE_STYLE = {"committed": "green", "held": "yellow", "retracted": "dim"}
# The state `list --deleted` shows for an assertion the lifecycle sweep set aside.
SET_ASIDE = "set aside"
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


def _quoted(value: str | None, erased: bool) -> str:
    if value is None:
        return "[text erased]" if erased else "—"
    return repr(value)


def _change(entry: HistoryEntry) -> tuple[str, str]:
    """What an entry changed, as (before, after) cells; text already made safe to print."""
    detail = entry.detail
    erased = bool(detail.get("erased"))
    if entry.op is HistoryOp.DELETE:
        return shown(entry.old_force or ""), f"{detail.get('reason', 'erased')} (text removed)"
    if entry.op is HistoryOp.TTL:
        since = str(detail.get("last_accessed_at", ""))[:10]
        return "live", f"{SET_ASIDE} (unused since {since}, importance {detail.get('importance')})"
    if entry.op is HistoryOp.LINK:
        strength = float(detail.get("strength", 0.0))
        return "—", f"related to #{detail.get('linked_number')} (strength {strength:.2f})"
    if entry.op is HistoryOp.RESTORE and entry.old_force is None:
        return SET_ASIDE, "live"
    if "importance" in detail:
        was, now = detail["importance"]
        return f"importance {was:g}", f"importance {now:g}"
    if "category" in detail and entry.op is HistoryOp.UPDATE:
        was, now = detail["category"]
        return f"category {shown(was)}", f"category {shown(now)}"
    if "pinned" in detail:
        was, now = detail["pinned"]
        return ("pinned" if was else "not pinned"), ("pinned" if now else "not pinned")
    before: list[str] = []
    after: list[str] = []
    if entry.op is HistoryOp.ADD:
        after.append(_quoted(entry.new_content, erased))
    elif entry.old_force is None:  # the content changed
        before.append(_quoted(entry.old_content, erased))
        after.append(_quoted(entry.new_content, erased))
    if entry.old_force is not None:
        before.append(entry.old_force.value)
    if entry.new_force is not None:
        after.append(entry.new_force.value)
    rationale = detail.get("rationale")
    if isinstance(rationale, str):
        after.append(f"({rationale})")
    elif erased and entry.old_force is not None:  # a retraction whose rationale was erased
        after.append("([text erased])")
    return shown(" ".join(before)) or "—", shown(" ".join(after)) or "—"


def history_table(entries: list[HistoryEntry], title: str) -> Table:
    """Every change, oldest first: when, op, who, before → after."""
    table = Table(title=title, title_justify="left")
    for column in ("when (UTC)", "op", "who", "before", "", "after"):
        table.add_column(column)
    for entry in entries:
        before, after = _change(entry)
        table.add_row(
            f"{entry.created_at:%Y-%m-%d %H:%M:%S}",
            entry.op.value,
            who(entry.actor.value),
            before,
            "→",
            after,
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


@memory_app.command("forget")
@handles_errors
def memory_forget(
    numbers: list[int] = NumbersArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Retract #NUMBER, or several (reversible with `restore`)."""
    from pipeline.memory import manage

    change_each(
        lambda s: _personal(s, person), numbers, manage.retract_on, "Retracted", "#", db_url
    )


@memory_app.command("restore")
@handles_errors
def memory_restore(
    numbers: list[int] = NumbersArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Restore retracted #NUMBERs as committed, or ones the lifecycle sweep set aside."""
    from pipeline.memory import manage

    mine = partial(_personal, person=person)
    change_each(mine, numbers, manage.restore_on, "Restored", "#", db_url)


Change = Callable[["Session", "manage.Shelf", int], Assertion]


def change_each(
    shelf_of: ShelfOf, numbers: list[int], change: Change, word: str, tag: str, db_url: str | None
) -> None:
    """Apply `change` to each numbered assertion of the shelf, in one transaction: every one
    is changed, or (when one cannot be) none is. The one rule of forget, restore, pin and
    unpin, for facts and notes alike; a number given twice counts once."""
    with store_for(db_url).write() as session:
        shelf = shelf_of(session)
        done = [change(session, shelf, n) for n in dict.fromkeys(numbers)]
    for one in done:
        if word == "Restored":
            console.print(restored_line(one, tag), highlight=False)
        else:
            console.print(
                f"{word} {tag}{one.display_number}: {shown(one.content)}", highlight=False
            )


def restored_line(done: Assertion, tag: str) -> str:
    """What a restore says: the number, the text, and its force when still retracted."""
    still = " (still retracted: restore it again to commit it)"
    tail = still if done.force.value == "retracted" else ""
    return f"Restored {tag}{done.display_number}: {shown(done.content)}{tail}"


def _personal(session: Session, person: str) -> manage.Shelf:
    from pipeline.memory import manage
    from pipeline.store.people import get_person

    return manage.personal_shelf(get_person(session, person))


def change_pin(
    shelf_of: ShelfOf, numbers: list[int], pinned: bool, tag: str, db_url: str | None
) -> None:
    """Pin or unpin the numbered assertions of the shelf `shelf_of(session)` names."""
    from pipeline.memory import manage

    def pin(session: Session, shelf: manage.Shelf, number: int) -> Assertion:
        return manage.pin_on(session, shelf, number, pinned)

    change_each(shelf_of, numbers, pin, "Pinned" if pinned else "Unpinned", tag, db_url)


@memory_app.command("pin")
@handles_errors
def memory_pin(
    numbers: list[int] = NumbersArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Pin #NUMBERs: the lifecycle sweep never sets them aside."""
    change_pin(lambda session: _personal(session, person), numbers, True, "#", db_url)


@memory_app.command("unpin")
@handles_errors
def memory_unpin(
    numbers: list[int] = NumbersArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Unpin #NUMBERs: the lifecycle sweep may set them aside again when unused."""
    change_pin(lambda session: _personal(session, person), numbers, False, "#", db_url)


def change_importance(
    shelf_of: ShelfOf, number: int, value: float, tag: str, db_url: str | None
) -> None:
    """Set the importance of the numbered assertion of the shelf `shelf_of(session)` names."""
    from pipeline.memory import manage

    with store_for(db_url).write() as session:
        done = manage.importance_on(session, shelf_of(session), number, value)
    console.print(
        f"{tag}{done.display_number} now has importance {done.importance:g}: {shown(done.content)}",
        highlight=False,
    )


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


ImportanceArgument = typer.Argument(
    ..., help="From 0 to 1; below the sweep's threshold an unused one may be set aside."
)


@memory_app.command("importance")
@handles_errors
def memory_importance(
    number: int = NumberArgument,
    value: float = ImportanceArgument,
    person: str = PersonOption,
    db_url: str | None = DbOption,
) -> None:
    """Set how much #NUMBER matters (0..1; the default is 0.5)."""
    change_importance(lambda session: _personal(session, person), number, value, "#", db_url)


def print_history(shelf_of: ShelfOf, number: int, tag: str, db_url: str | None) -> None:
    """The history table of the numbered assertion of the shelf `shelf_of(session)` names."""
    from pipeline.memory import manage

    with store_for(db_url).read() as session:
        shelf = shelf_of(session)
        entries = manage.history_on(session, shelf, number)
    if not entries:
        console.print(
            f"{tag}{number} has no history: it was stored before history was kept.",
            highlight=False,
        )
        return
    console.print(history_table(entries, f"History of {tag}{number} in {shown(shelf.where)}"))


@memory_app.command("history")
@handles_errors
def memory_history(
    number: int = NumberArgument, person: str = PersonOption, db_url: str | None = DbOption
) -> None:
    """Every change to #NUMBER, oldest first: what, who, before and after, when."""
    print_history(lambda session: _personal(session, person), number, "#", db_url)


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
    if output is not None and not output.parent.is_dir():
        raise fail(
            f"the folder of {str(output)!r} does not exist — create it first, or name another file"
        )
    if output is not None and output.is_dir():
        raise fail(f"{str(output)!r} is a folder — name a file to write the export to")
    from pipeline.memory.export import as_json, as_markdown, export_person, write_atomically
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        data = export_person(session, get_person(session, person))
    # JSON escapes control characters itself; markdown is read, so they are shown as escapes.
    text = as_json(data) if kind == "json" else printable(as_markdown(data))
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        write_atomically(output, text)
    except OSError as exc:
        raise fail(f"cannot write {str(output)!r}: {exc.strerror} — name a writable file") from None
    err_console.print(f"Exported {shown(data['person'])} to {shown(output)}.", highlight=False)


@memory_app.command("erase")
@handles_errors
def memory_erase(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    mentions: list[str] = typer.Option(
        [],
        "--mentions",
        help="Also erase every turn of the person that mentions this text (repeat for more): "
        "words said again in plain chat, which no fact links to.",
    ),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    db_url: str | None = DbOption,
) -> None:
    """Delete assertions PERMANENTLY (asks first unless --yes)."""
    from pipeline.memory import manage
    from pipeline.store.erasure import linked_turns, mentioning
    from pipeline.store.people import get_person

    for text in mentions:
        check_text(text, "the --mentions text")
        if not text.strip():
            raise fail(
                "--mentions needs some text — name the word to erase, e.g. --mentions rambutan"
            )
    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
        # validate first; a fact the lifecycle sweep set aside can be erased too
        targets = [manage.numbered(session, found, n, include_deleted=True) for n in numbers]
        # beyond the turns the facts' own erasure blanks
        linked = set(linked_turns(session, [a.id for a in targets]))
        mentioned = len(set(mentioning(session, found.id, mentions)) - linked)
    if mentions:
        words = ", ".join(repr(m) for m in mentions)
        console.print(
            f"{mentioned} more turn(s) mention {shown(words)} and will be erased too.",
            highlight=False,
        )
    if not yes:
        confirm_erase(targets, "#")
    done = manage.erase_numbers(store, person, numbers, mentions=mentions)
    report_erasure(done)


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
    if done.mentions:
        console.print(f"Erased {done.mentions} turn(s) that mentioned the text as well.")
    if not done.checkpointed:
        console.print(
            "Another connection was reading, so old copies may stay in the -wal file until "
            "the next checkpoint; run the erase again when it is idle."
        )
