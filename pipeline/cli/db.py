"""`converse db ...`: migrations."""

from __future__ import annotations

import typer

from pipeline.cli.common import DbOption, console, handles_errors

db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)


@db_app.command("upgrade")
@handles_errors
def db_upgrade(db_url: str | None = DbOption) -> None:
    """Migrate the database to the newest schema (data is kept)."""
    from pipeline.config import database_url  # settings and SQLAlchemy: only when it runs
    from pipeline.store import upgrade

    before, after = upgrade(db_url or database_url())
    if before == after:
        console.print(f"Already at migration {after}.")
    else:
        console.print(f"Migrated from {before or 'empty'} to {after}.")


@db_app.command("head")
def db_head() -> None:
    """Print the newest migration this version knows."""
    from pipeline.store import head_revision

    console.print(head_revision())
