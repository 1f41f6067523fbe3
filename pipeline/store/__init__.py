"""The memory store: SQLAlchemy tables, Alembic migrations and repository functions."""

from pipeline.store.engine import Store, head_revision, open_store, upgrade

__all__ = ["Store", "head_revision", "open_store", "upgrade"]
