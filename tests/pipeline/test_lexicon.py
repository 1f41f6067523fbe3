"""The core reads no language: the words keyword matching, recall and commit_knowledge skip
are lent by the provider bundle (pipeline/lexicon.py), and fact comparison reads no words
(docs/intents.md, "The local provider's reading")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pipeline.converse import converse
from pipeline.domain import ActorKind, Assertion, NormativeForce
from pipeline.english.extract import params_for
from pipeline.english.lexicon import ENGLISH
from pipeline.intents.facts import same_fact
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.memory.matching import match_forget
from pipeline.providers import make_providers
from pipeline.providers.base import Providers
from pipeline.store import assertions as repo
from pipeline.store.people import get_person, get_project
from tests.conftest import script

WHEN = datetime(2026, 1, 1, tzinfo=UTC)
NOTES = ("Drip irrigation runs at 6 am", "The tomato note: stake them early")


def _facts(*contents: str) -> list[Assertion]:
    return [
        Assertion(
            id=i,
            engagement_id=1,
            display_number=i,
            content=c,
            actor=ActorKind.OPERATOR,
            force=NormativeForce.COMMITTED,
            created_at=WHEN,
            updated_at=WHEN,
        )
        for i, c in enumerate(contents, start=1)
    ]


def test_the_lent_stop_words_decide_what_a_description_names() -> None:
    notes = _facts(*NOTES)
    english = match_forget("the irrigation note", notes, ENGLISH.stop_words)
    assert [a.content for a in english.assertions] == [NOTES[0]]
    # Lent nothing, every word counts: "the" and "note" outweigh "irrigation".
    bare = match_forget("the irrigation note", notes, NO_LEXICON.stop_words)
    assert [a.content for a in bare.assertions] == [NOTES[1]]
    assert match_forget("that thing", notes, ENGLISH.stop_words).action == "no_match"


@pytest.mark.parametrize(
    "described", ["brother Tomas 😊", "Brother Tomas!!", "(brother tomas)", "brother — Tomas"]
)
def test_a_description_held_word_for_word_matches_whatever_symbols_surround_it(
    described: str,
) -> None:
    facts = _facts("Your brother Tomas lives in Braga", "Tomas is your brother's old friend")
    # both share "brother" and "Tomas": only the substring over words tells them apart
    found = match_forget(described, facts, NO_LEXICON.stop_words)
    assert (found.action, [a.content for a in found.assertions]) == (
        "confirm_retraction",
        ["Your brother Tomas lives in Braga"],
    )


def test_facts_compare_without_reading_words() -> None:
    assert same_fact("You're vegetarian", "you’re  VEGETARIAN.")
    assert not same_fact("You're vegetarian", "You are vegetarian")
    assert not same_fact("I'm vegetarian", "You're vegetarian")
    assert not same_fact("", "")
    assert not same_fact("You eat no meat", "You eat meat")


def test_every_registered_provider_lends_english_and_a_bundle_built_by_hand_lends_none() -> None:
    assert make_providers("local").lexicon == ENGLISH
    provider = script({"message": "hi", "intent": "general_conversation"})
    assert Providers.of(provider, provider).lexicon == NO_LEXICON


def test_a_lent_lexicon_of_another_language_names_every_item(store, make_person) -> None:
    make_person(store)
    with store.write() as session:
        project = get_project(session, get_person(session, "ana"), "Garden")
        for content in NOTES:
            repo.add_assertion(session, project.id, content, ActorKind.OPERATOR)
    provider = script(
        {
            "message": "marque-les tous comme définitifs",
            "intent": "commit_knowledge",
            "params": {"knowledge_reference": "tous"},
        }
    )
    french = Lexicon(name="fr", stop_words=frozenset({"les", "le"}), every_item=frozenset({"tous"}))
    outcome = converse(
        store,
        person="ana",
        project="Garden",
        message="marque-les tous comme définitifs",
        providers=Providers.of(provider, provider, lexicon=french),
    )
    assert outcome.route.operation_data["action"] == "committed"
    assert len(outcome.route.operation_data["items"]) == 2


def test_the_english_reading_gives_no_fact_for_a_request_that_states_none() -> None:
    assert params_for("remember_about_me", "remember that") == {}
    assert params_for("remember_about_me", "remember that I'm vegetarian") == {
        "personal_fact": "You're vegetarian"
    }
