"""Whole turns through converse() with multi-fact extraction on and off: what memory holds
after a long turn and after the person confirms all, some or none of the facts offered."""

from __future__ import annotations

from typing import Any

from pipeline.clock import utcnow
from pipeline.converse import converse
from pipeline.domain import NormativeForce
from pipeline.memory.manage import personal_assertions
from pipeline.providers.base import Providers
from pipeline.settings import Settings
from pipeline.store.people import get_person
from pipeline.store.status import current_notes, put_note
from tests.conftest import script

R = "remember_about_me"
LONG = (
    "Okay, a few things you should know about me. My sister Priya lives in Leeds, "
    "I'm allergic to cats, and I run every Saturday morning."
)
FIVE = (
    "Let me give you the basics. I'm 34. My wife Dana is a vet. We have a toddler called Rumi. "
    "I'm originally from Tbilisi. I play chess online most evenings."
)
ON = Settings.model_validate({"multi_fact_extraction": True})


def _facts(store: Any) -> dict[str, NormativeForce]:
    with store.read() as session:
        found = personal_assertions(session, get_person(session, "ana"), include_retracted=True)
    return {a.content: a.force for a in found}


# How a model reads each reply to the offer of #1 Priya, #2 cats, #3 running (the core
# acts on the reading; tests/multi_fact/test_choices.py has the local provider's reading).
READINGS: dict[str, dict[str, Any]] = {
    "yes": {"relation": "confirm"},
    "yes, all of them": {"relation": "confirm"},
    "keep them, but not the cats one": {"relation": "choose", "chosen": [1, 3]},
    "only the second": {"relation": "choose", "chosen": [2]},
    "no, none of them": {"relation": "reject"},
}


def _provider(*replies: str, long: str = LONG) -> Any:
    return script(
        {"message": long, "intent": R, "params": {"personal_fact": long}},
        *({"message": r, "intent": R, "reading": READINGS[r]} for r in replies),
    )


def _say(store: Any, provider: Any, message: str, settings: Settings | None = ON) -> Any:
    return converse(
        store,
        person="ana",
        message=message,
        turn_settings=settings,
        providers=Providers.of(provider, provider),
    )


def test_with_the_setting_off_a_long_turn_is_one_fact_as_before(store, make_person) -> None:
    make_person(store)
    off = Settings.model_validate({})
    first = _say(store, _provider(), LONG, settings=off)
    assert first.route.operation_data["action"] == "held"
    assert _facts(store) == {LONG.rstrip("."): NormativeForce.HELD}
    assert "extraction" not in first.companion_turn.meta


def test_a_long_turn_holds_each_fact_and_yes_commits_them_all(store, make_person) -> None:
    make_person(store)
    p = _provider("yes, all of them")
    held = _say(store, p, LONG)
    assert held.route.operation_data["action"] == "held_many"
    assert _facts(store) == {
        "Your sister Priya lives in Leeds": NormativeForce.HELD,
        "You're allergic to cats": NormativeForce.HELD,
        "You run every Saturday morning": NormativeForce.HELD,
    }
    assert "1. Your sister Priya lives in Leeds" in held.reply.text
    meta = held.companion_turn.meta["extraction"]
    assert meta["method"] == "sentence splitter" and meta["candidates"] == 3
    done = _say(store, p, "yes, all of them")
    assert done.route.operation_data["action"] == "committed_all"
    assert set(_facts(store).values()) == {NormativeForce.COMMITTED}


def test_some_by_position_and_by_word_the_rest_retracted(store, make_person) -> None:
    make_person(store)
    p = _provider("keep them, but not the cats one")
    _say(store, p, LONG)
    done = _say(store, p, "keep them, but not the cats one")
    assert done.route.operation_data["action"] == "committed_some"
    assert _facts(store) == {
        "Your sister Priya lives in Leeds": NormativeForce.COMMITTED,
        "You're allergic to cats": NormativeForce.RETRACTED,
        "You run every Saturday morning": NormativeForce.COMMITTED,
    }


def test_only_a_position_keeps_just_that_one(store, make_person) -> None:
    make_person(store)
    p = _provider("only the second")
    _say(store, p, LONG)
    _say(store, p, "only the second")
    kept = {c for c, f in _facts(store).items() if f is NormativeForce.COMMITTED}
    assert kept == {"You're allergic to cats"}


def test_none_retracts_every_fact_offered(store, make_person) -> None:
    make_person(store)
    p = _provider("no, none of them")
    _say(store, p, LONG)
    done = _say(store, p, "no, none of them")
    assert done.route.operation_data["action"] == "declined_all"
    assert set(_facts(store).values()) == {NormativeForce.RETRACTED}


def test_a_question_after_the_offer_leaves_every_fact_held(store, make_person) -> None:
    make_person(store)
    p = script(
        {"message": LONG, "intent": R, "params": {"personal_fact": LONG}},
        {"message": "what's a good warm-up before running?", "intent": "general_conversation"},
    )
    _say(store, p, LONG)
    _say(store, p, "what's a good warm-up before running?")
    assert set(_facts(store).values()) == {NormativeForce.HELD}


def test_at_most_three_are_written_and_the_reply_says_so(store, make_person) -> None:
    make_person(store)
    held = _say(store, _provider(long=FIVE), FIVE)
    data = held.route.operation_data
    assert len(data["facts"]) == 3 and len(data["left_out"]) == 2
    assert len(_facts(store)) == 3
    assert "at most 3" in held.reply.text


def test_the_daily_cap_falls_back_to_the_single_fact_flow(store, make_person) -> None:
    make_person(store)
    capped = Settings.model_validate({"multi_fact_extraction": True, "multi_fact_daily_cap": 4})
    p = _provider("yes", long=LONG)
    _say(store, p, LONG, settings=capped)
    _say(store, p, "yes", settings=capped)
    second = script({"message": FIVE, "intent": R, "params": {"personal_fact": FIVE}})
    later = _say(store, second, FIVE, settings=capped)
    assert later.route.operation_data["action"] == "held"  # one fact, as without the setting
    assert later.companion_turn.meta["extraction"] == {"skipped": "daily cap reached"}
    assert len(_facts(store)) == 4


def test_a_fact_already_known_is_not_held_again(store, make_person) -> None:
    make_person(store)
    cats = "I'm allergic to cats"
    first = script(
        {"message": cats, "intent": R, "params": {"personal_fact": "You're allergic to cats"}}
    )
    _say(store, first, cats)
    again = (
        "For what it's worth, my sister Priya lives in Leeds, I'm allergic to cats, "
        "and I run every Saturday morning."
    )
    held = _say(store, _provider(long=again), again)
    assert held.route.operation_data["already_known"] == ["You're allergic to cats"]
    assert sorted(_facts(store)) == [
        "You run every Saturday morning",
        "You're allergic to cats",
        "Your sister Priya lives in Leeds",
    ]


def test_a_partial_confirmation_reads_as_one_sentence_addressed_to_the_person() -> None:
    from pipeline.domain import RouteResult
    from pipeline.providers.replies import compose_reply

    result = RouteResult(
        intent="remember_about_me",
        operation_data={
            "action": "committed_some",
            "committed": [{"content": "You moved to Lisbon"}, {"content": "Your dog is Bolo"}],
            "declined": [{"content": "You work nights"}],
        },
    )
    assert compose_reply(result) == (
        "Got it, I'll remember that you moved to Lisbon and that your dog is Bolo, "
        "and leave out that you work nights."
    )


def test_facts_declined_take_the_status_notes_carrying_their_words(store, make_person) -> None:
    make_person(store)
    p = _provider("only the second")
    _say(store, p, LONG)
    sister = next(fact for fact in _facts(store) if "Priya" in fact)  # #1, declined below
    with store.write() as session:
        ana = get_person(session, "ana")
        # as a responder noting statuses would, from the same long message
        for topic, text in [("sister", sister), ("knee", "Knee sore after the long run")]:
            put_note(
                session,
                ana.id,
                topic,
                text,
                at=utcnow(),
                written_by="test",
                keep_current=10,
                keep_replaced=10,
            )
    _say(store, p, "only the second")
    with store.read() as session:
        kept = [n.topic for n in current_notes(session, get_person(session, "ana").id)]
    assert kept == ["knee"]  # the declined fact's words went; a note on another thing stays
