"""The assertion and memory stores are split along their seams (reads apart from writes;
destinations apart from memories) and keep the names they always exported."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPORTED = {
    "pipeline.store.assertions": [
        "VISIBLE", "add_assertion", "amend_content", "checked_importance", "committed_newest",
        "committed_page", "count_by_force", "erase", "find_live", "get_assertion",
        "get_by_number", "ids_by_number", "latest_held_by_companion", "list_assertions",
        "newest_containing", "restore_deleted", "set_category", "set_force", "set_importance",
        "set_pinned", "touch",
    ],
    "pipeline.store.memories": [
        "add_delta", "add_entity", "add_memory", "archive_destination", "confirmed_entities",
        "delete_destination", "destination", "destination_names", "drop_drafts",
        "embedding_of", "erase_from_memories", "memories_of", "memory", "memory_row",
        "open_items", "put_embedding", "your_story",
    ],
}  # fmt: skip


@pytest.mark.parametrize("module", EXPORTED)
def test_the_split_modules_keep_their_names(module):
    found = importlib.import_module(module)
    assert sorted(found.__all__) == sorted(EXPORTED[module])
    assert all(callable(getattr(found, n)) or n == "VISIBLE" for n in EXPORTED[module])


@pytest.mark.parametrize(
    "path",
    [
        "pipeline/store/assertions.py",
        "pipeline/store/assertion_reads.py",
        "pipeline/store/memories.py",
        "pipeline/store/destinations.py",
        "pipeline/cli/memory.py",
    ],
)
def test_each_module_stays_under_400_lines(path):
    assert len((ROOT / path).read_text(encoding="utf-8").splitlines()) < 400
