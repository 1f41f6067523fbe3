"""A reading is a list of acts: a message that does two things, a late answer to an offer made
turns ago, a forget that names a held offer, several offers pending with none named, and a
status report the core notes (pipeline/intents/acts.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.converse import TurnOutcome
from pipeline.domain import NormativeForce
from pipeline.providers.answers import validated_acts
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store, people
from pipeline.store import assertions as repo
from pipeline.store.status import current_notes
from tests.conftest import script

Say = Callable[..., TurnOutcome]

OFFER = {
    "message": "my commute is 10 minutes by bike",
    "intent": "remember_about_me",
    "params": {"personal_fact": "Your commute is 10 minutes by bike"},
}
CHAT = {"message": "what a week it's been", "intent": "general_conversation"}


def _facts(store: Store, person: str = "ana") -> list[tuple[int, str, NormativeForce]]:
    with store.read() as session:
        from pipeline.store.people import get_person

        found = get_person(session, person)
        assert found.personal_engagement_id is not None
        rows = repo.list_assertions(
            session,
            found.personal_engagement_id,
            [NormativeForce.HELD, NormativeForce.COMMITTED, NormativeForce.RETRACTED],
        )
    return sorted((a.display_number, a.content, a.force) for a in rows)


def _run(store: Store, say: Say, entries: list[dict[str, Any]]) -> list[TurnOutcome]:
    with store.write() as session:
        if not people.list_persons(session):
            people.create_person(session, "ana")
    provider = script(*entries)
    return [say(store, provider, e["message"]) for e in entries]


def test_a_confirmation_and_a_new_fact_commit_the_offer_and_hold_the_new_fact(
    sqlite_store: Store, say: Say
) -> None:
    both = {
        "message": "yes that's it, oh and I've got a bad knee",
        "acts": [
            {"intent": "remember_about_me", "relation": "confirm"},
            {"intent": "remember_about_me", "params": {"personal_fact": "You've got a bad knee"}},
        ],
    }
    outcomes = _run(sqlite_store, say, [OFFER, both])
    assert _facts(sqlite_store) == [
        (1, "Your commute is 10 minutes by bike", NormativeForce.COMMITTED),
        (2, "You've got a bad knee", NormativeForce.HELD),
    ]
    last = outcomes[-1]
    assert last.route.operation_data["action"] == "committed"
    assert [r.operation_data["action"] for r in last.route.also] == ["held"]
    assert "you've got a bad knee" in last.reply.text
    assert last.companion_turn.operation_data["also"][0]["assertion_display_number"] == 2


def test_a_rejection_and_a_new_fact_drop_the_offer_and_hold_the_new_fact(
    sqlite_store: Store, say: Say
) -> None:
    both = {
        "message": "no leave that out, but do keep that I sing in a choir",
        "acts": [
            {"intent": "remember_about_me", "relation": "reject"},
            {"intent": "remember_about_me", "params": {"personal_fact": "You sing in a choir"}},
        ],
    }
    _run(sqlite_store, say, [OFFER, both])
    assert _facts(sqlite_store) == [
        (1, "Your commute is 10 minutes by bike", NormativeForce.RETRACTED),
        (2, "You sing in a choir", NormativeForce.HELD),
    ]


def test_a_fact_and_a_question_hold_the_fact_and_answer_the_question(
    sqlite_store: Store, say: Say
) -> None:
    both = {
        "message": "remember I've stopped eating meat, and what should I cook tonight?",
        "acts": [
            {
                "intent": "remember_about_me",
                "params": {"personal_fact": "You've stopped eating meat"},
            },
            {"intent": "general_conversation", "question": True},
        ],
    }
    (outcome,) = _run(sqlite_store, say, [both])
    assert _facts(sqlite_store) == [(1, "You've stopped eating meat", NormativeForce.HELD)]
    assert [r.intent for r in outcome.route.also] == ["general_conversation"]


def test_several_facts_are_offered_as_one_and_a_yes_keeps_them_all(
    sqlite_store: Store, say: Say
) -> None:
    several = {
        "message": "I'm a night owl and my cat is called Biscuit",
        "acts": [
            {"intent": "remember_about_me", "params": {"personal_fact": "You're a night owl"}},
            {
                "intent": "remember_about_me",
                "params": {"personal_fact": "Your cat is called Biscuit"},
            },
        ],
    }
    yes = {"message": "yes", "acts": [{"intent": "remember_about_me", "relation": "confirm"}]}
    outcomes = _run(sqlite_store, say, [several, yes])
    assert outcomes[0].route.operation_data["action"] == "held_many"
    assert [f[2] for f in _facts(sqlite_store)] == [NormativeForce.COMMITTED] * 2


def test_a_late_correction_names_its_item_and_amends_it(sqlite_store: Store, say: Say) -> None:
    late = {
        "message": "about what I said earlier - it's 20 minutes, not 10",
        "acts": [
            {
                "intent": "remember_about_me",
                "relation": "correct",
                "answers": 1,
                "corrected": "Your commute is 20 minutes by bike",
            }
        ],
    }
    outcomes = _run(sqlite_store, say, [OFFER, CHAT, late])
    assert outcomes[-1].route.operation_data["action"] == "refined"
    assert _facts(sqlite_store) == [(1, "Your commute is 20 minutes by bike", NormativeForce.HELD)]


def test_a_late_confirmation_naming_no_item_answers_the_one_pending(
    sqlite_store: Store, say: Say
) -> None:
    late = {
        "message": "oh and yes, that's right",
        "acts": [{"intent": "remember_about_me", "relation": "confirm"}],
    }
    _run(sqlite_store, say, [OFFER, CHAT, late])
    assert _facts(sqlite_store)[0][2] is NormativeForce.COMMITTED


def test_a_forget_that_names_a_held_offer_turns_it_down(sqlite_store: Store, say: Say) -> None:
    forget = {
        "message": "actually don't keep that thing about my commute",
        "intent": "forget_about_me",
        "params": {"forget_description": "commute"},
    }
    outcomes = _run(sqlite_store, say, [OFFER, CHAT, forget])
    assert outcomes[-1].route.operation_data["action"] == "rejected"
    assert _facts(sqlite_store)[0][2] is NormativeForce.RETRACTED


def test_with_two_offers_pending_and_none_named_the_core_asks(
    sqlite_store: Store, say: Say
) -> None:
    other = {
        "message": "my sister lives in Leeds",
        "intent": "remember_about_me",
        "params": {"personal_fact": "Your sister lives in Leeds"},
    }
    late = {
        "message": "yes that one's right",
        "acts": [{"intent": "remember_about_me", "relation": "confirm"}],
    }
    outcomes = _run(sqlite_store, say, [OFFER, other, CHAT, late])
    assert outcomes[-1].route.operation_data["action"] == "which_item"
    assert "Which one do you mean: #2" in outcomes[-1].reply.text
    assert [f[2] for f in _facts(sqlite_store)] == [NormativeForce.HELD] * 2


def test_a_late_answer_to_an_item_no_longer_pending_changes_nothing_else(
    sqlite_store: Store, say: Say
) -> None:
    yes = {"message": "yep", "acts": [{"intent": "remember_about_me", "relation": "confirm"}]}
    again = {
        "message": "yes, #1 is right",
        "acts": [{"intent": "remember_about_me", "relation": "confirm", "answers": 1}],
    }
    _run(sqlite_store, say, [OFFER, yes, CHAT, again])
    assert _facts(sqlite_store) == [
        (1, "Your commute is 10 minutes by bike", NormativeForce.COMMITTED)
    ]


def test_a_status_act_is_noted_and_stores_no_fact(sqlite_store: Store, say: Say) -> None:
    status = {
        "message": "phone screen's cracked, getting it fixed saturday",
        "acts": [
            {
                "intent": "general_conversation",
                "status": {
                    "topic": "phone",
                    "text": "Your phone screen is cracked",
                    "until": "saturday",
                },
            }
        ],
    }
    (outcome,) = _run(sqlite_store, say, [status])
    assert _facts(sqlite_store) == []
    assert [(n.topic, n.text) for n in outcome.status_notes] == [
        ("phone", "Your phone screen is cracked (until saturday)")
    ]
    with sqlite_store.read() as session:
        assert [n.topic for n in current_notes(session, outcome.operator_turn.person_id)] == [
            "phone"
        ]
    assert "Noted: Your phone screen is cracked (until saturday)." in outcome.reply.text


def test_a_malformed_act_is_dropped_and_an_answer_without_usable_acts_degrades() -> None:
    kept = validated_acts(
        [
            {"intent": "remember_about_me", "relation": "confirm", "answers": "#x"},
            {"intent": "no_such_intent"},
            "not an act",
        ],
        provider="t",
    )
    assert [a.intent for a in kept.acts] == ["remember_about_me"]
    assert kept.acts[0].reading is not None and kept.acts[0].reading.answers is None
    assert kept.error is not None and "act 2: unknown intent" in kept.error
    empty = validated_acts([], provider="t")
    assert empty.intent == "general_conversation" and empty.error
    assert ClassifiedIntent(intent="x").all_acts()[0].intent == "x"


def test_a_status_act_beside_one_fact_keeps_the_sentence_splitters_facts(
    sqlite_store: Store,
) -> None:
    from pipeline.converse import converse
    from pipeline.english import ENGLISH
    from pipeline.providers.base import Providers
    from pipeline.settings import Settings

    message = (
        "Quick update on me: I'm vegetarian these days, my knee is in a brace until June, "
        "and I take my coffee black with no sugar at all, just so you know."
    )
    provider = script(
        {
            "message": message,
            "acts": [
                {"intent": "remember_about_me", "params": {"personal_fact": "You're vegetarian"}},
                {
                    "intent": "general_conversation",
                    "status": {"topic": "knee", "text": "Your knee is in a brace until June"},
                },
            ],
        }
    )
    with sqlite_store.write() as session:
        people.create_person(session, "ana")
    outcome = converse(
        sqlite_store,
        person="ana",
        message=message,
        providers=Providers.of(provider, provider, lexicon=ENGLISH),
        turn_settings=Settings(multi_fact_extraction=True),
    )
    assert outcome.route.operation_data["action"] == "held_many"
    assert [r.operation_data["action"] for r in outcome.route.also] == ["status_noted"]


def test_a_late_rejection_naming_no_item_drops_nothing(sqlite_store: Store, say: Say) -> None:
    late = {
        "message": "actually don't keep that thing about kiwi",
        "acts": [{"intent": "forget_about_me", "relation": "reject"}],
    }
    _run(sqlite_store, say, [OFFER, CHAT, late])
    assert _facts(sqlite_store)[0][2] is NormativeForce.HELD
