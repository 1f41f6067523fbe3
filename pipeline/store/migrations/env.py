"""Alembic environment: runs migrations on the connection the store hands over, or on a URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pipeline.config import database_url

config = context.config


def run() -> None:
    """Run migrations online, on a given connection or on `sqlalchemy.url`."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url") or database_url()
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
