"""`memory export` holds everything stored about the person: also the memories closed
conversations left (Your Story's), in JSON and Markdown."""

from __future__ import annotations

from pathlib import Path

from pipeline.conversations import close_conversation, confirm_conversation, get_active_conversation
from pipeline.english import ENGLISH
from pipeline.memory.export import as_markdown, export_person
from pipeline.prompting import default_library
from pipeline.store import open_store, upgrade
from pipeline.store.people import create_person, get_person
from tests.conversations.helpers import talk


def test_a_confirmed_conversation_memory_is_exported(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'export.db'}"
    upgrade(url)
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
    talk(store, "ana", "I decided to plant larch beds along the fence.")
    with store.read() as session:
        ana = get_person(session, "ana")
    open_one = get_active_conversation(store, ana.id)
    assert open_one is not None
    close_conversation(
        store, ana.id, open_one.id, library=default_library(), generator=None, lexicon=ENGLISH
    )
    (kept,) = confirm_conversation(store, ana.id, open_one.id, embedder=None)

    with store.read() as session:
        data = export_person(session, ana)
    (exported,) = data["conversation_memories"]
    assert exported["id"] == kept.id and exported["status"] == "confirmed"
    assert exported["destination"]["name"] == kept.destination.name
    assert "larch" in exported["narrative"].lower()
    markdown = as_markdown(data)
    assert "## Conversation memories" in markdown
    assert f"**memory {kept.id}** in `{kept.destination.name}` (confirmed" in markdown
    store.dispose()
