"""forget_about_me: keywords first, meaning as the tie-breaker and the fallback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pipeline.converse import converse
from pipeline.domain import ActorKind, Engagement, NormativeForce, Person
from pipeline.english.lexicon import ENGLISH
from pipeline.providers.base import Providers
from pipeline.providers.local import MiniLMEmbedder
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store import embeddings as vectors_repo

pytestmark = pytest.mark.slow

FACTS = (
    "You're allergic to all shellfish",
    "Your birthday is March 15th",
    "You live in Miami",
    "You prefer working in the mornings",
    "You have a morning run on Sundays",
    "You drink coffee every morning",
    "Your coffee table is made of oak",
)


def _forget(description: str) -> ScriptedProvider:
    return ScriptedProvider(
        [
            ScriptEntry(
                message=description,
                intent="forget_about_me",
                params={"forget_description": description},
            )
        ]
    )


def _remembered(store: Store, person: Person) -> None:
    assert person.personal_engagement_id is not None
    with store.write() as session:
        for content in FACTS:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                content,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )


def _say(store: Store, description: str, embedder: Any) -> dict[str, Any]:
    provider = _forget(description)
    outcome = converse(
        store,
        person="ana",
        message=description,
        providers=Providers.of(provider, provider, embedder=embedder, lexicon=ENGLISH),
    )
    return outcome.route.operation_data


def test_meaning_is_the_fallback_when_keywords_find_nothing(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], embedder: MiniLMEmbedder
) -> None:
    person, _ = make_person(store)
    _remembered(store, person)
    found = _say(store, "the seafood thing", embedder)
    assert found["action"] == "confirm_retraction"
    assert found["matched_fact"] == "You're allergic to all shellfish"
    with store.read() as session:
        assert vectors_repo.count_vectors(session, embedder.model_name) == len(FACTS)


def test_unrelated_requests_still_match_nothing(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], embedder: MiniLMEmbedder
) -> None:
    person, _ = make_person(store)
    _remembered(store, person)
    assert _say(store, "the football scores", embedder)["action"] == "no_match"


def test_keywords_stay_first(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], embedder: MiniLMEmbedder
) -> None:
    person, _ = make_person(store)
    _remembered(store, person)
    found = _say(store, "Miami", embedder)
    assert found["matched_fact"] == "You live in Miami"


def test_meaning_breaks_a_keyword_tie(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], embedder: MiniLMEmbedder
) -> None:
    person, _ = make_person(store)
    _remembered(store, person)
    without = _say(store, "my coffee habit", None)
    assert without["action"] == "ambiguous"  # "coffee" matches two facts equally
    found = _say(store, "my coffee habit", embedder)
    assert found["action"] == "confirm_retraction"
    assert found["matched_fact"] == "You drink coffee every morning"


def test_a_close_call_between_tied_facts_stays_ambiguous(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], embedder: MiniLMEmbedder
) -> None:
    person, _ = make_person(store)
    _remembered(store, person)
    # "morning" ties the two morning facts and their cosines are too close to call
    found = _say(store, "the morning work thing", embedder)
    assert found["action"] == "ambiguous"
    assert {c["content"] for c in found["candidates"]} == {
        "You prefer working in the mornings",
        "You have a morning run on Sundays",
    }
