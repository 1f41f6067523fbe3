"""`converse person ...` and `converse project ...`: who talks, and in which projects."""

from __future__ import annotations

import typer
from rich.table import Table

from pipeline.cli.common import DbOption, PersonOption, console, handles_errors, shown, store_for
from pipeline.text import check_text

person_app = typer.Typer(help="Create and list people.", no_args_is_help=True)
project_app = typer.Typer(help="Create and list a person's projects.", no_args_is_help=True)


@person_app.command("add")
@handles_errors
def person_add(name: str, db_url: str | None = DbOption) -> None:
    """Create a person (and their personal memory)."""
    from pipeline.store.people import create_person  # SQLAlchemy: only when the command runs

    check_text(name, "the name")
    with store_for(db_url).write() as session:
        person = create_person(session, name)
    console.print(f"Created {shown(person.name)} (personal memory ready).", highlight=False)


@person_app.command("list")
@handles_errors
def person_list(db_url: str | None = DbOption) -> None:
    """List people."""
    from pipeline.store.people import list_persons

    with store_for(db_url).read() as session:
        people = list_persons(session)
    if not people:
        console.print("No people yet — add one with `converse person add NAME`.")
    for person in people:
        console.print(shown(person.name), highlight=False)


@project_app.command("add")
@handles_errors
def project_add(
    name: str,
    person: str = PersonOption,
    seed: str = typer.Option("", help="What the project is about."),
    db_url: str | None = DbOption,
) -> None:
    """Create a project for a person."""
    from pipeline.store.people import create_project, get_person

    check_text(name, "the project name")
    check_text(seed, "the project description")
    with store_for(db_url).write() as session:
        project = create_project(session, get_person(session, person), name, seed)
    console.print(
        f"Created project {shown(repr(project.name))} for {shown(person)}.", highlight=False
    )


@project_app.command("list")
@handles_errors
def project_list(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """List a person's projects."""
    from pipeline.store.people import get_person, list_projects

    with store_for(db_url).read() as session:
        projects = list_projects(session, get_person(session, person))
    table = Table("project", "about")
    for project in projects:
        table.add_row(shown(project.name), shown(project.seed))
    console.print(table if projects else f"{shown(person)} has no projects yet.", highlight=False)
