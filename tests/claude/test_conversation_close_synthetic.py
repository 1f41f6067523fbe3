"""Closing a conversation with Claude's compression stages, on a synthetic cassette: the draft
memory, its entities, the delta against the open state and the suggested destination come
from the (scripted) answers and are stored for review; confirming applies the delta."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.conversation_models import EntityStatus
from pipeline.conversations import (
    close_conversation,
    confirm_conversation,
    get_active_conversation,
)
from pipeline.english import ENGLISH
from pipeline.prompting import default_library
from pipeline.providers.registry import Providers
from pipeline.store import memories as repo
from pipeline.store import open_store
from pipeline.store.people import create_person, create_project
from tests.conversations.helpers import talk

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]


def test_synthetic_close_stores_claudes_extraction_for_review(
    claude: Callable[..., Providers], tmp_path: Path
) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'close.db'}")
    with store.write() as session:
        person = create_person(session, "ana")
        create_project(session, person, "Garden", "Raised beds and a greenhouse")
    # An earlier conversation left a question open (kept with the no-model fallback).
    talk(store, "ana", "I'm not sure which wood for the beds")
    earlier = get_active_conversation(store, person.id)
    assert earlier is not None
    close_conversation(
        store, person.id, earlier.id, library=default_library(), generator=None, lexicon=ENGLISH
    )
    confirm_conversation(store, person.id, earlier.id, embedder=None)
    with store.read() as session:
        (opened,) = repo.open_items(session, person.id)
    assert opened.id == 1  # the id the scripted delta answer names

    talk(
        store,
        "ana",
        "We'll go with larch for the raised beds, the clay soil needs them",
        "Tom still owes me the timber quote",
        project="Garden",
    )
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    providers = claude()
    preview = close_conversation(
        store,
        person.id,
        conversation.id,
        library=default_library(),
        generator=providers.structured,
        lexicon=ENGLISH,
    )
    (draft,) = preview.memories
    assert draft.narrative.startswith("Ana settled on larch raised beds")
    assert draft.destination.name == "Garden"
    assert preview.suggestion is not None and preview.suggestion.confidence == 0.9
    assert {e.kind for e in draft.entities} >= {"decisions", "waiting_on", "tasks"}
    assert [(d.kind, d.entity_id) for d in draft.deltas if d.kind == "resolve"] == [("resolve", 1)]
    assert all(s.method == "claude synthetic-fixture" for s in preview.stages)
    assert draft.method == "claude synthetic-fixture"

    confirm_conversation(store, person.id, conversation.id, embedder=None)
    with store.read() as session:
        entity = repo.memory(session, repo.memory_row(session, person.id, 1)).entities[0]
        still_open = {i.kind for i in repo.open_items(session, person.id)}
    assert entity.status is EntityStatus.RESOLVED and entity.resolved_by == draft.id
    assert still_open == {"tasks", "waiting_on"}
    store.dispose()
