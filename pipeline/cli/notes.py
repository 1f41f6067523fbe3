"""`converse notes ...`: inspect and manage a project's notes (its knowledge).

The same rules as `converse memory`, with numbers shown as `notes#3` so that a project note is
never taken for the personal fact `#3`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    checked_name,
    console,
    handles_errors,
    shown,
    store_for,
)
from pipeline.cli.memory import DEFAULT_LIST_LIMIT, print_newest
from pipeline.cli.params import id_argument
from pipeline.cli.shelf_commands import ShelfKind, add_shelf_commands, where_option

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pipeline.memory import manage
    from pipeline.store import Store

# The store and the memory rules (SQLAlchemy, pydantic) are imported inside the commands, as in
# pipeline/cli/memory.py, so the help pages need neither.

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
    from pipeline.memory import manage
    from pipeline.store.people import get_person, get_project

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
    from pipeline.memory import manage
    from pipeline.store.people import get_person, get_project

    found = get_person(session, person)
    return manage.project_shelf(found, get_project(session, found, project))


def _erase(
    store: Store, numbers: list[int], mentions: list[str], person: str, project: str
) -> manage.Erasure:
    from pipeline.memory import manage

    return manage.erase_notes(store, person, project, numbers)


NOTES = ShelfKind(
    tag=TAG,
    noun="notes",
    where=(where_option("person", PersonOption), where_option("project", ProjectOption)),
    find=_shelf,
    erase=_erase,
    number=NumberArgument,
    numbers=NumbersArgument,
)
add_shelf_commands(notes_app, NOTES)
