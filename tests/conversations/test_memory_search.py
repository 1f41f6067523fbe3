"""Search over confirmed conversation memories: hybrid scoring, a destination filter, drafts
left out, and an index that follows edits (pipeline/conversations/memory_search.py)."""

from __future__ import annotations

import pytest

from pipeline.conversation_models import YOUR_STORY
from pipeline.conversations import (
    close_conversation,
    confirm_conversation,
    edit_memory,
    get_active_conversation,
    redirect_memory,
)
from pipeline.conversations.memory_search import search_memories
from pipeline.domain import Person
from pipeline.english import ENGLISH
from pipeline.errors import NotFound
from pipeline.prompting import default_library
from pipeline.providers.local import MiniLMEmbedder
from pipeline.store import Store
from tests.conversations.helpers import talk


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def _kept(store: Store, person: Person, embedder: MiniLMEmbedder, message: str, where: str) -> int:
    talk(store, person.name, message)
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    preview = close_conversation(
        store,
        person.id,
        conversation.id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )
    (draft,) = preview.memories
    redirect_memory(store, person.id, draft.id, where)
    confirm_conversation(store, person.id, conversation.id, embedder=embedder)
    return draft.id


def test_search_ranks_by_meaning_filters_by_destination_and_follows_edits(
    store, make_person, embedder
) -> None:
    person, project = make_person(store)
    tiles = _kept(
        store, person, embedder, "I decided on terracotta tiles for the patio.", project.name
    )
    wedding = _kept(
        store,
        person,
        embedder,
        "My sister's wedding is in June and I'm giving a toast.",
        YOUR_STORY,
    )
    talk(store, person.name, "I'm still deciding about the garden shed.")  # not closed: no memory

    best = search_memories(store, person.id, "what floor did we choose outside", embedder)
    assert best[0].memory.id == tiles
    assert all(h.memory.status == "confirmed" for h in best)
    in_story = search_memories(store, person.id, "tiles", embedder, destination=YOUR_STORY)
    assert tiles not in [h.memory.id for h in in_story]
    assert search_memories(store, person.id, "shed", embedder, min_similarity=0.0, limit=10)
    assert "shed" not in " ".join(
        h.memory.narrative
        for h in search_memories(store, person.id, "shed", embedder, min_similarity=0.0)
    )

    edit_memory(store, person.id, wedding, "Ana is learning to make sourdough bread.")
    after = search_memories(store, person.id, "baking bread", embedder)
    assert after[0].memory.id == wedding  # the index was rebuilt from the edited narrative
    with pytest.raises(NotFound, match="neither Your Story"):
        search_memories(store, person.id, "tiles", embedder, destination="Nowhere")
