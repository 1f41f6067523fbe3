"""The memory store: SQLAlchemy tables, Alembic migrations and repository functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.store.engine import Store, head_revision, open_store, upgrade

__all__ = ["Store", "head_revision", "open_store", "upgrade"]

# Loaded on first use, so pipeline/store/quick_read.py can be imported without SQLAlchemy.
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".engine"))
