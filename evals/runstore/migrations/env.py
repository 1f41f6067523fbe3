"""Alembic environment of the run store: its own version table, so the run store can share a
database with the memory store without either reading the other's migrations."""

from __future__ import annotations

from alembic import context

VERSION_TABLE = "runstore_alembic_version"
config = context.config


def run() -> None:
    """Run migrations on the connection the run store hands over."""
    connection = config.attributes["connection"]
    context.configure(connection=connection, version_table=VERSION_TABLE, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
