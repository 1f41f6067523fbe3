"""`converse notes ...`: inspect and manage a project's notes (its knowledge).

The same rules as `converse memory`, with numbers shown as `notes#3` so that a project note is
never taken for the personal fact `#3`.
"""

from __future__ import annotations

import typer
from sqlalchemy.orm import Session

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    checked_name,
    console,
    handles_errors,
    shown,
    store_for,
)
from pipeline.cli.memory import (
    DEFAULT_LIST_LIMIT,
    ImportanceArgument,
    change_each,
    change_importance,
    change_pin,
    confirm_erase,
    print_history,
    print_newest,
    report_erasure,
)
from pipeline.cli.params import id_argument
from pipeline.memory import manage
from pipeline.store.people import get_person, get_project

notes_app = typer.Typer(help="Inspect and manage a project's notes.", no_args_is_help=True)

TAG = "notes#"
_SHOWN_BY = "see the numbers with `converse notes list --person NAME --project PROJECT`"

ProjectOption = typer.Option(
    ...,
    "--project",
    help="Which project's notes.",
    envvar="CONVERSE_PROJECT",
    callback=checked_name,
)
NumberArgument = id_argument(TAG, _SHOWN_BY, "The number `notes list` shows (notes#N).")
NumbersArgument = id_argument(TAG, _SHOWN_BY, "The numbers `notes list` shows (notes#N).")


@notes_app.command("list")
@handles_errors
def notes_list(
    person: str = PersonOption,
    project: str = ProjectOption,
    all_: bool = typer.Option(False, "--all", help="Include retracted notes."),
    deleted: bool = typer.Option(
        False, "--deleted", help="Include notes the lifecycle sweep set aside."
    ),
    limit: int = typer.Option(
        DEFAULT_LIST_LIMIT, "--limit", min=0, help="Show the newest N (0 shows every one)."
    ),
    db_url: str | None = DbOption,
) -> None:
    """List the project's notes, newest first (held and committed; --all adds retracted)."""
    with store_for(db_url).read() as session:
        found = get_person(session, person)
        engagement = get_project(session, found, project)
        shelf = manage.project_shelf(found, engagement)
        notes = manage.shelf_assertions(session, shelf, all_, include_deleted=deleted)
    if not notes:
        console.print(f"No notes in project {shown(repr(engagement.name))}.", highlight=False)
        return
    print_newest(notes, limit, f"Notes in project {shown(repr(engagement.name))}", TAG)


def _shelf(session: Session, person: str, project: str) -> manage.Shelf:
    found = get_person(session, person)
    return manage.project_shelf(found, get_project(session, found, project))


@notes_app.command("forget")
@handles_errors
def notes_forget(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Retract notes#NUMBER, or several (reversible with `restore`)."""
    change_each(
        lambda s: _shelf(s, person, project), numbers, manage.retract_on, "Retracted", TAG, db_url
    )


@notes_app.command("restore")
@handles_errors
def notes_restore(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Restore retracted notes#NUMBERs as committed, or ones the sweep set aside."""
    change_each(
        lambda s: _shelf(s, person, project), numbers, manage.restore_on, "Restored", TAG, db_url
    )


@notes_app.command("pin")
@handles_errors
def notes_pin(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Pin notes#NUMBERs: the lifecycle sweep never sets them aside."""
    change_pin(lambda session: _shelf(session, person, project), numbers, True, TAG, db_url)


@notes_app.command("unpin")
@handles_errors
def notes_unpin(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Unpin notes#NUMBERs: the lifecycle sweep may set them aside again when unused."""
    change_pin(lambda session: _shelf(session, person, project), numbers, False, TAG, db_url)


@notes_app.command("importance")
@handles_errors
def notes_importance(
    number: int = NumberArgument,
    value: float = ImportanceArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Set how much notes#NUMBER matters (0..1; the default is 0.5)."""
    change_importance(lambda session: _shelf(session, person, project), number, value, TAG, db_url)


@notes_app.command("history")
@handles_errors
def notes_history(
    number: int = NumberArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    db_url: str | None = DbOption,
) -> None:
    """Every change to notes#NUMBER, oldest first: what, who, before and after, when."""
    print_history(lambda session: _shelf(session, person, project), number, TAG, db_url)


@notes_app.command("erase")
@handles_errors
def notes_erase(
    numbers: list[int] = NumbersArgument,
    person: str = PersonOption,
    project: str = ProjectOption,
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    db_url: str | None = DbOption,
) -> None:
    """Delete notes PERMANENTLY, with every turn that stated them (asks first unless --yes)."""
    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
        shelf = manage.project_shelf(found, get_project(session, found, project))
        # validate first; a note the lifecycle sweep set aside can be erased too
        targets = [manage.on_shelf(session, shelf, n, include_deleted=True) for n in numbers]
    if not yes:
        confirm_erase(targets, TAG)
    report_erasure(manage.erase_notes(store, person, project, numbers))
