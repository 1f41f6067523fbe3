"""The memory store: SQLAlchemy tables, Alembic migrations and repository functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.store.engine import Store, head_revision, open_store, upgrade

__all__ = ["Store", "head_revision", "open_store", "upgrade"]


def __getattr__(name: str) -> Any:
    # Loaded on first use, so pipeline/store/quick_read.py can be imported without SQLAlchemy.
    if name in __all__:
        from pipeline.store import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'pipeline.store' has no attribute {name!r}")
