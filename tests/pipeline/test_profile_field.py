"""Which sensitive profile field a held fact changes is the classifier's typed reading, stored
with the fact when it is held; the lent wording patterns are read only when the answer does not
say (pipeline/memory/profile_fields.py). Consent then reads the stored field alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from pipeline.converse import TurnOutcome, converse
from pipeline.domain import ProfileField
from pipeline.english import ENGLISH
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.memory import consent
from pipeline.memory.profile_fields import field_of, fields_of_many
from pipeline.providers.base import Providers
from pipeline.providers.intent_schema import IntentAnswer, answer_schema, classification
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.engine import alembic_config, upgrade
from pipeline.store.people import get_person
from tests.conftest import script

Say = Callable[..., TurnOutcome]


def _remember(message: str, fact: str, **extra: object) -> dict[str, object]:
    return {
        "message": message,
        "intent": "remember_about_me",
        "params": {"personal_fact": fact},
        **extra,
    }


def _waiting(store: Store) -> list[tuple[str, ProfileField]]:
    with store.read() as session:
        found = consent.pending(session, get_person(session, "ana"))
    return [(p.assertion.content, p.field) for p in found]


def test_the_reading_marks_a_change_no_wording_pattern_names(
    store: Store, make_person, say: Say
) -> None:
    make_person(store, "ana")
    provider = script(
        _remember("off to Lisbon for good", "You're off to Lisbon for good", profile_field="city")
    )
    say(store, provider, "off to Lisbon for good")
    assert _waiting(store) == [("You're off to Lisbon for good", ProfileField.CITY)]


def test_a_reading_of_none_outranks_the_wording(store: Store, make_person, say: Say) -> None:
    make_person(store, "ana")
    provider = script(_remember("I live in Denver", "You live in Denver", profile_field="none"))
    say(store, provider, "I live in Denver")
    assert _waiting(store) == []


@pytest.mark.parametrize(
    ("lexicon", "expected"),
    [(ENGLISH, [("You live in Denver", ProfileField.CITY)]), (NO_LEXICON, [])],
)
def test_an_answer_that_does_not_say_falls_back_to_the_lent_patterns(
    store: Store, make_person, lexicon: Lexicon, expected: list[tuple[str, ProfileField]]
) -> None:
    make_person(store, "ana")
    provider = script(_remember("I live in Denver", "You live in Denver"))
    converse(
        store,
        person="ana",
        message="I live in Denver",
        providers=Providers.of(provider, provider, lexicon=lexicon),
    )
    assert _waiting(store) == expected


def test_a_correction_keeps_the_field_of_the_offer(store: Store, make_person, say: Say) -> None:
    make_person(store, "ana")
    provider = script(
        _remember("I live in Denver", "You live in Denver", profile_field="city"),
        _remember(
            "no, Boulder",
            "You're in Boulder",
            after="remember_about_me",
            reading={"relation": "correct", "corrected": "You're in Boulder"},
            profile_field="none",
        ),
    )
    say(store, provider, "I live in Denver")
    refined = say(store, provider, "no, Boulder")
    assert refined.route.operation_data["action"] == "refined"
    assert _waiting(store) == [("You're in Boulder", ProfileField.CITY)]


def test_several_facts_take_their_own_field_then_the_messages() -> None:
    facts = ["You go by Sam", "You're off to Lisbon", "You like figs"]
    assert fields_of_many(ProfileField.CITY, facts, ENGLISH) == [
        ProfileField.PREFERRED_NAME,
        ProfileField.CITY,
        ProfileField.CITY,  # the message's field: marked rather than let past consent
    ]
    assert fields_of_many(ProfileField.NONE, facts, ENGLISH) == [
        ProfileField.PREFERRED_NAME,
        None,
        None,
    ]
    assert fields_of_many(None, facts, NO_LEXICON) == [None, None, None]
    assert field_of(ProfileField.NONE, "You go by Sam", ENGLISH) is None
    assert field_of(None, "You go by Sam", ENGLISH) is ProfileField.PREFERRED_NAME


def test_the_answer_schema_asks_for_the_field_and_a_bad_value_is_dropped() -> None:
    enum = answer_schema()["properties"]["profile_field"]["enum"]
    assert enum == ["preferred_name", "pronouns", "city", "language", "none"]
    base = {"intent": "remember_about_me", "personal_fact": "You go by Sam"}
    said = classification(
        IntentAnswer.model_validate({**base, "profile_field": "pronouns"}), provider="claude"
    )
    odd = classification(
        IntentAnswer.model_validate({**base, "profile_field": "nickname"}), provider="claude"
    )
    silent = classification(IntentAnswer.model_validate(base), provider="claude")
    assert said.profile_field is ProfileField.PRONOUNS
    assert odd.profile_field is None and odd.intent == "remember_about_me"
    assert silent.profile_field is None


def test_held_facts_are_read_once_on_upgrade(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        config = alembic_config(sqlite_url)
        config.attributes["connection"] = conn
        command.upgrade(config, "0016")
        conn.execute(
            text("INSERT INTO persons (id, name, created_at) VALUES (1, 'a', '2026-01-01')")
        )
        conn.execute(
            text(
                "INSERT INTO engagements (id, name, visibility, seed, owner_person_id,"
                " created_at, last_display_number) VALUES (1, 'p', 'personal', 's', 1,"
                " '2026-01-01', 3)"
            )
        )
        for ident, content, force in [
            (1, "You go by Sam", "held"),
            (2, "You're allergic to figs", "held"),
            (3, "You live in Porto", "committed"),  # consent concerns held facts alone
        ]:
            conn.execute(
                text(
                    "INSERT INTO assertions (id, engagement_id, display_number, content, actor,"
                    " force, created_at, updated_at, last_accessed_at) VALUES (:i, 1, :i, :c,"
                    " 'companion', :f, '2026-01-01', '2026-01-01', '2026-01-01')"
                ),
                {"i": ident, "c": content, "f": force},
            )
    engine.dispose()
    upgrade(sqlite_url)
    store = open_store(sqlite_url)
    try:
        with store.read() as session:
            fields = [repo.get_assertion(session, i).profile_field for i in (1, 2, 3)]
    finally:
        store.dispose()
    assert fields == [ProfileField.PREFERRED_NAME, None, None]
