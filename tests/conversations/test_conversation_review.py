"""The review: preview, edit (original kept), redirect, split, confirm (embedding and state
deltas applied), Your Story's permanence, and one person's memories kept from another's."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.clock import utcnow
from pipeline.conversation_models import YOUR_STORY, EntityStatus, MemoryStatus, Preview
from pipeline.conversations import (
    SplitPart,
    close_conversation,
    confirm_conversation,
    edit_memory,
    get_active_conversation,
    get_memory_preview,
    redirect_memory,
    split_memory,
)
from pipeline.domain import Person
from pipeline.english import ENGLISH
from pipeline.errors import ConverseError, IllegalTransition, NotFound, PermanentDestination
from pipeline.memory.embeddings import from_bytes
from pipeline.prompting import default_library
from pipeline.store import Store
from pipeline.store import memories as repo
from tests.conversations.helpers import talk


def _closed(store: Store, person: Person, *messages: str, project: str | None = None) -> Preview:
    talk(store, person.name, *messages, project=project)
    conversation = get_active_conversation(store, person.id)
    assert conversation is not None
    return close_conversation(
        store,
        person.id,
        conversation.id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )


def test_the_preview_shows_narrative_entities_and_the_suggested_destination(store, make_person):
    person, _ = make_person(store)
    preview = _closed(
        store,
        person,
        "I decided to build raised beds because the soil is clay",
        "I'm waiting on Tom for the timber quote",
        project="Garden",
    )
    (memory,) = preview.memories
    assert memory.status is MemoryStatus.DRAFT
    assert "decided: build raised beds" in memory.narrative
    assert {(e.kind, e.text) for e in memory.entities} >= {
        ("decisions", "build raised beds — because the soil is clay"),
        ("waiting_on", "Tom: the timber quote"),
    }
    assert preview.suggestion is not None and preview.suggestion.destination == "Garden"
    assert memory.destination.name == "Garden"
    assert preview.destinations == (YOUR_STORY, "Garden")
    assert {s.stage for s in preview.stages} == {"entities", "narrative", "deltas", "routing"}
    assert memory.method.startswith("deterministic (no model)")


def test_edit_keeps_the_original_and_redirect_changes_the_destination(store, make_person):
    person, _ = make_person(store)
    (memory,) = _closed(store, person, "I decided to sell the old mower").memories
    edited = edit_memory(
        store, person.id, memory.id, "Ana is selling the old mower. It is too loud."
    )
    assert edited.narrative == "Ana is selling the old mower. It is too loud."
    assert edited.original_narrative == memory.narrative and edited.edited
    moved = redirect_memory(store, person.id, memory.id, "Garden")
    assert moved.destination.name == "Garden"


def test_redirect_to_an_unknown_destination_names_the_choices(store, make_person):
    person, _ = make_person(store)
    (memory,) = _closed(store, person, "I decided to sell the old mower").memories
    with pytest.raises(NotFound, match="no destination 'Boat'"):
        redirect_memory(store, person.id, memory.id, "Boat")
    with pytest.raises(ConverseError, match="the narrative is empty"):
        edit_memory(store, person.id, memory.id, "   ")


def test_split_makes_one_memory_per_destination_linking_the_same_conversation(store, make_person):
    person, _ = make_person(store)
    preview = _closed(
        store,
        person,
        "I decided to plant garlic in October",
        "I'm waiting on Priya for the holiday dates",
    )
    (memory,) = preview.memories
    by_kind = {e.kind: e.id for e in memory.entities}
    parts = [
        SplitPart(
            destination="Garden",
            narrative="Garlic goes in in October. Ana decided it.",
            entity_ids=(by_kind["decisions"],),
        ),
        SplitPart(
            destination=YOUR_STORY,
            narrative="Ana awaits Priya's holiday dates. Plans wait on them.",
            entity_ids=(by_kind["waiting_on"],),
        ),
    ]
    first, second = split_memory(store, person.id, memory.id, parts)
    assert (first.destination.name, second.destination.name) == ("Garden", YOUR_STORY)
    assert first.conversation_id == second.conversation_id == preview.conversation.id
    assert [e.kind for e in first.entities if e.kind != "people"] == ["decisions"]
    assert "waiting_on" in [e.kind for e in second.entities]
    # The open delta followed its waiting-on.
    assert [d.kind for d in second.deltas] == ["open"]
    with pytest.raises(NotFound, match="are not in memory"):
        split_memory(
            store,
            person.id,
            first.id,
            [parts[0], SplitPart(destination="Garden", narrative="x", entity_ids=(9999,))],
        )
    with pytest.raises(ConverseError, match="at least two parts"):
        split_memory(store, person.id, first.id, parts[:1])


@pytest.mark.slow
def test_confirm_embeds_the_narrative_applies_deltas_and_archives(store, make_person):
    from pipeline.providers.local import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    person, _ = make_person(store)
    first = _closed(store, person, "I'm not sure which calendar format handles recurrence")
    confirm_conversation(store, person.id, first.conversation.id, embedder=embedder)
    with store.read() as session:
        (opened,) = repo.open_items(session, person.id)
    assert opened.text == "which calendar format handles recurrence"

    second = _closed(store, person, "I figured out which calendar format handles recurrence: RRULE")
    (draft,) = second.memories
    assert [(d.kind, d.entity_id) for d in draft.deltas if d.kind == "resolve"] == [
        ("resolve", opened.id)
    ]
    # Not applied before confirmation: the item is still open.
    with store.read() as session:
        assert [i.id for i in repo.open_items(session, person.id)] == [opened.id]
    (kept,) = confirm_conversation(store, person.id, second.conversation.id, embedder=embedder)
    assert kept.status is MemoryStatus.CONFIRMED and all(d.applied for d in kept.deltas)
    with store.read() as session:
        assert repo.open_items(session, person.id) == []
        entity = repo.memory(
            session, repo.memory_row(session, person.id, first.memories[0].id)
        ).entities[0]
        stored = repo.embedding_of(session, kept.id)
    assert entity.status is EntityStatus.RESOLVED and entity.resolved_by == kept.id
    assert stored is not None and stored.model == embedder.model_name
    vector = from_bytes(stored.vector, stored.dim)
    query = embedder.embed(["what did I settle about calendar recurrence?"])[0]
    other = embedder.embed(["my sister's wedding dress"])[0]
    assert float(np.dot(vector, query)) > float(np.dot(vector, other))


def test_your_story_cannot_be_archived_or_deleted(store, make_person):
    person, _ = make_person(store)
    with store.write() as session:
        with pytest.raises(PermanentDestination, match="Your Story is permanent"):
            repo.archive_destination(session, person.id, YOUR_STORY, utcnow())
        with pytest.raises(PermanentDestination, match="cannot be deleted"):
            repo.delete_destination(session, person.id, "your story")


def test_deleting_a_project_destination_moves_its_memories_to_your_story(store, make_person):
    person, _ = make_person(store)
    (memory,) = _closed(store, person, "I decided to sell the old mower").memories
    redirect_memory(store, person.id, memory.id, "Garden")
    with store.write() as session:
        assert repo.delete_destination(session, person.id, "Garden") == 1
    preview = get_memory_preview(store, person.id, memory.conversation_id)
    assert preview.memories[0].destination.name == YOUR_STORY


def test_confirmed_memories_cannot_be_split_or_redirected(store, make_person):
    person, _ = make_person(store)
    preview = _closed(store, person, "I decided to sell the old mower")
    confirm_conversation(store, person.id, preview.conversation.id, embedder=None)
    memory = preview.memories[0]
    with pytest.raises(IllegalTransition, match="only a draft can be redirected"):
        redirect_memory(store, person.id, memory.id, YOUR_STORY)
    # Editing a kept memory is allowed; the extracted narrative stays beside it.
    assert edit_memory(store, person.id, memory.id, "Ana sold the mower. Done.").edited


def test_another_persons_memories_and_open_state_stay_theirs(store, make_person):
    ana, _ = make_person(store)
    bob, _ = make_person(store, "bob", "Boat")
    preview = _closed(store, ana, "I'm not sure whether to repaint the fence")
    confirm_conversation(store, ana.id, preview.conversation.id, embedder=None)
    memory = preview.memories[0]
    with pytest.raises(NotFound, match=f"no memory {memory.id} for this person"):
        edit_memory(store, bob.id, memory.id, "Bob's now. Really.")
    with pytest.raises(NotFound):
        redirect_memory(store, bob.id, memory.id, YOUR_STORY)
    with pytest.raises(NotFound, match="no destination 'Garden'"), store.write() as session:
        repo.destination(session, bob.id, "Garden")  # ana's project is not bob's
    bobs = _closed(store, bob, "I'm not sure whether to repaint the hull")
    with store.read() as session:
        assert [i.text for i in repo.open_items(session, bob.id)] == []
        assert [i.text for i in repo.open_items(session, ana.id)] == [
            "whether to repaint the fence"
        ]
    assert "fence" not in bobs.memories[0].narrative
    assert bobs.destinations == (YOUR_STORY, "Boat")
