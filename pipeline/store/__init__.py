"""The memory store: SQLAlchemy tables, Alembic migrations and repository functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.store.assertions import add_assertion, list_assertions
    from pipeline.store.conversation_rows import (
        ConversationRow,
        MemoryEmbeddingRow,
        MemoryEntityRow,
        MemoryRow,
    )
    from pipeline.store.engine import Store, db_settings, head_revision, open_store, upgrade
    from pipeline.store.filtered import Filters, filtered_memories
    from pipeline.store.memories import your_story
    from pipeline.store.people import create_person, create_project, get_person
    from pipeline.store.relations import count_edges
    from pipeline.store.sessions import put_working_document
    from pipeline.store.tables import (
        AssertionEmbeddingRow,
        AssertionRow,
        EngagementRow,
        HistoryRow,
    )
    from pipeline.store.turns import add_turn

# Each name's module, loaded on first use, so pipeline/store/quick_read.py can be imported
# without SQLAlchemy.
_HOMES = {
    "add_assertion": ".assertions",
    "list_assertions": ".assertions",
    "ConversationRow": ".conversation_rows",
    "MemoryEmbeddingRow": ".conversation_rows",
    "MemoryEntityRow": ".conversation_rows",
    "MemoryRow": ".conversation_rows",
    "Store": ".engine",
    "db_settings": ".engine",
    "head_revision": ".engine",
    "open_store": ".engine",
    "upgrade": ".engine",
    "Filters": ".filtered",
    "filtered_memories": ".filtered",
    "your_story": ".memories",
    "create_person": ".people",
    "create_project": ".people",
    "get_person": ".people",
    "count_edges": ".relations",
    "put_working_document": ".sessions",
    "AssertionEmbeddingRow": ".tables",
    "AssertionRow": ".tables",
    "EngagementRow": ".tables",
    "HistoryRow": ".tables",
    "add_turn": ".turns",
}
__all__ = [
    "AssertionEmbeddingRow",
    "AssertionRow",
    "ConversationRow",
    "EngagementRow",
    "Filters",
    "HistoryRow",
    "MemoryEmbeddingRow",
    "MemoryEntityRow",
    "MemoryRow",
    "Store",
    "add_assertion",
    "add_turn",
    "count_edges",
    "create_person",
    "create_project",
    "db_settings",
    "filtered_memories",
    "get_person",
    "head_revision",
    "list_assertions",
    "open_store",
    "put_working_document",
    "upgrade",
    "your_story",
]


__getattr__ = lazy_exports(__name__, _HOMES)
