"""Erasing a fact also blanks what a conversation's memory extracted from the turns that
stated it: narrative, entities, vectors and the routing reasoning; other memories stay."""

from __future__ import annotations

from pipeline.conversations import (
    close_conversation,
    confirm_conversation,
    get_active_conversation,
    get_memory_preview,
)
from pipeline.converse import converse
from pipeline.english import ENGLISH
from pipeline.memory.manage import erase_fact
from pipeline.prompting import default_library
from pipeline.providers.base import Providers
from pipeline.store.erasure import ERASED_MARKER
from tests.conftest import script
from tests.conversations.helpers import talk

provider = script(
    {
        "message": "I decided to avoid kumquats because I'm allergic to kumquats",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to kumquats"},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
)


def _close_and_keep(store, person_id):
    conversation = get_active_conversation(store, person_id)
    assert conversation is not None
    close_conversation(
        store,
        person_id,
        conversation.id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )
    confirm_conversation(store, person_id, conversation.id, embedder=None)
    return conversation.id


def test_erasing_a_fact_blanks_the_memory_extracted_from_its_turns(store, make_person):
    person, _ = make_person(store)
    talk(store, "ana", "I decided to repaint the fence blue")
    kept_id = _close_and_keep(store, person.id)
    for message in ("I decided to avoid kumquats because I'm allergic to kumquats", "yes"):
        converse(store, person="ana", message=message, providers=Providers.of(provider, provider))
    erased_id = _close_and_keep(store, person.id)
    before = get_memory_preview(store, person.id, erased_id).memories[0]
    assert "kumquats" in before.narrative and before.entities

    erase_fact(store, "ana", "kumquats")

    after = get_memory_preview(store, person.id, erased_id)
    (memory,) = after.memories
    assert memory.narrative == memory.original_narrative == ERASED_MARKER
    assert memory.entities == () and memory.deltas == ()
    assert "kumquat" not in after.model_dump_json()
    other = get_memory_preview(store, person.id, kept_id).memories[0]
    assert "repaint the fence blue" in other.narrative
