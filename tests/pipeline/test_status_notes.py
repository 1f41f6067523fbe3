"""Status notes: the store (upsert by topic, history, bounds, clear) on SQLite and PostgreSQL,
the toolbox (bad input, per-turn bounds), what converse() shows and stores, privacy between
people, and erasure of a note that carries erased text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest

from pipeline.clock import utcnow
from pipeline.converse import TurnOutcome, converse
from pipeline.domain import Reply
from pipeline.english import ENGLISH
from pipeline.errors import AlreadyAnswered, InvalidMessage
from pipeline.memory.manage import erase_fact
from pipeline.memory.status import MAX_NOTES, MAX_TEXT_CHARS, checked_note, topic_key, write_note
from pipeline.providers.base import Providers, RespondRequest
from pipeline.providers.replies import compose_reply
from pipeline.providers.scripted import ScriptedProvider
from pipeline.store import Store
from pipeline.store.people import create_person
from pipeline.store.status import clear_notes, current_notes, note_history
from pipeline.tools import Toolbox
from pipeline.tools.toolbox import MAX_NOTES_PER_TURN
from tests.conftest import script


def test_topics_are_spelled_one_way() -> None:
    openers = ENGLISH.topic_openers
    assert topic_key("The Car", openers) == topic_key("my car", openers) == "car"
    assert topic_key("car!", openers) == "car"
    assert topic_key("Dad's flight", openers) == "dad's flight"
    assert topic_key("the", openers) == "the"  # a topic is never left empty by its openers


def test_a_topics_openers_are_the_lent_languages() -> None:
    # The core reads no English: with no lexicon lent, only case, spacing and punctuation go.
    assert topic_key("The  Car!") == "the car"
    french = frozenset({"la", "le", "ma", "mon"})
    assert topic_key("Ma voiture", french) == topic_key("la voiture", french) == "voiture"


def test_a_note_without_topic_or_text_is_refused_and_a_long_one_is_cut() -> None:
    with pytest.raises(InvalidMessage, match="no topic"):
        checked_note(" !! ", "at the shop")
    with pytest.raises(InvalidMessage, match="has no text"):
        checked_note("car", "   ")
    long = checked_note("car", "word " * 200)
    assert len(long.text) <= MAX_TEXT_CHARS and long.text.endswith("…")


def _person(store: Store, name: str = "Ana") -> int:
    with store.write() as session:
        return create_person(session, name).id


def test_a_later_note_on_a_topic_replaces_the_earlier_and_keeps_it_as_history(
    store: Store,
) -> None:
    person = _person(store)
    now = utcnow()
    with store.write() as session:
        car = checked_note("the car", "At the shop", ENGLISH.topic_openers)
        write_note(session, person, car, at=now, written_by="t")
        write_note(
            session, person, checked_note("laptop", "Being repaired"), at=now, written_by="t"
        )
        later = now + timedelta(days=2)
        fixed = checked_note("My car", "Back, fixed", ENGLISH.topic_openers)
        write_note(session, person, fixed, at=later, written_by="t")
    with store.read() as session:
        current = current_notes(session, person)
        history = note_history(session, person, "car")
    assert [(n.topic, n.text) for n in current] == [
        ("car", "Back, fixed"),
        ("laptop", "Being repaired"),
    ]
    assert [(n.text, n.replaced_at is not None) for n in history] == [
        ("Back, fixed", False),
        ("At the shop", True),
    ]


def test_notes_are_bounded_and_clear_deletes_them(store: Store) -> None:
    person = _person(store)
    now = utcnow()
    with store.write() as session:
        for i in range(MAX_NOTES + 3):
            note = checked_note(f"thing {i}", "pending")
            write_note(session, person, note, at=now + timedelta(minutes=i), written_by="t")
    with store.read() as session:
        current = current_notes(session, person)
    assert len(current) == MAX_NOTES and current[0].topic == f"thing {MAX_NOTES + 2}"
    with store.write() as session:
        assert clear_notes(session, person, "thing 14") == 1
        clear_notes(session, person)
    with store.read() as session:
        assert note_history(session, person) == []


@dataclass
class Noting:
    """A responder that notes what the test tells it to (the tool plumbing, not a model)."""

    notes: dict[str, tuple[str, str]]
    name: str = "noting"

    def respond(self, request: RespondRequest) -> Reply:
        if request.tools is not None and request.message in self.notes:
            request.tools.note(*self.notes[request.message])
        return Reply(text=compose_reply(request.route), provider=self.name)


def _say(store: Store, responder: Noting, message: str, person: str = "ana") -> TurnOutcome:
    classifier = script({"message": message, "intent": "general_conversation"})
    return converse(
        store, person=person, message=message, providers=Providers.of(classifier, responder)
    )


def test_a_noted_status_is_shown_on_later_turns_to_its_person_only(sqlite_store: Store) -> None:
    _person(sqlite_store, "ana")
    _person(sqlite_store, "ben")
    responder = Noting({"car news": ("car", "In for a clutch until Friday")})
    first = _say(sqlite_store, responder, "car news")
    assert first.status_notes[0].source_turn_id == first.operator_turn.id
    assert "status_notes" not in [r.family for r in first.prompt.refs]  # written with the turn
    for i in range(10):
        later = _say(sqlite_store, responder, f"something else {i}")
    assert "car: In for a clutch until Friday" in later.prompt.text
    assert "status_notes" in [r.family for r in later.prompt.refs]
    ben = _say(sqlite_store, responder, "hello there", person="ben")
    assert "clutch" not in ben.prompt.text
    assert "status_notes" not in [r.family for r in ben.prompt.refs]


def test_the_notes_part_sits_after_the_summary_and_before_the_instruction(
    sqlite_store: Store,
) -> None:
    _person(sqlite_store, "ana")
    responder = Noting({"car news": ("car", "At the shop")})
    _say(sqlite_store, responder, "car news")
    families = [r.family for r in _say(sqlite_store, responder, "and?").prompt.refs]
    assert families.index("persona") < families.index("status_notes")
    assert families.index("status_notes") < families.index("instructions/general_conversation")


def test_a_turn_that_is_not_stored_leaves_no_note(sqlite_store: Store) -> None:
    person_id = _person(sqlite_store, "ana")
    responder = Noting({"car news": ("car", "At the shop")})
    classifier = script({"message": "car news", "intent": "general_conversation"})
    # The turn answers an inbox message another process answered first: after the reply (and
    # its tool call), nothing of the turn is stored.
    with pytest.raises(AlreadyAnswered):
        converse(
            sqlite_store,
            person="ana",
            message="car news",
            answers=[987654],
            providers=Providers.of(classifier, responder),
        )
    with sqlite_store.read() as session:
        assert note_history(session, person_id) == []


def test_the_toolbox_refuses_bad_input_and_too_many_notes(sqlite_store: Store) -> None:
    person_id = _person(sqlite_store, "ana")
    with sqlite_store.read() as session:
        from pipeline.store.people import get_person

        person = get_person(session, "ana")
    tools = Toolbox(sqlite_store, person, None, utcnow())
    assert tools.call("update_status", {"topic": "car"}).is_error
    assert tools.call("update_status", "car at shop").is_error
    assert tools.call("update_status", {"topic": "car", "text": "x", "mood": 1}).is_error
    assert "no tool 'launch'" in tools.call("launch", {}).text
    for i in range(MAX_NOTES_PER_TURN):
        assert not tools.note(f"thing {i}", "pending").is_error
    assert tools.note("one more", "pending").is_error
    assert [c.ok for c in tools.calls][-1] is False
    assert all(set(m) == {"name", "ok"} for m in tools.meta())  # no text kept in metadata
    assert person_id == person.id


def test_erasing_a_fact_erases_a_note_written_from_the_turn_that_stated_it(
    sqlite_store: Store,
) -> None:
    _person(sqlite_store, "ana")
    said = "my knee is in a brace until March"
    fact = "Your knee is in a brace until March"
    provider = script(
        {"message": said, "intent": "remember_about_me", "params": {"personal_fact": fact}},
        {"message": "yes", "intent": "remember_about_me", "params": {"personal_fact": fact}},
    )
    responder = Noting({said: ("knee", "In a brace until March")})

    def say(message: str) -> TurnOutcome:
        return converse(
            sqlite_store, person="ana", message=message, providers=Providers.of(provider, responder)
        )

    say(said)
    say("yes")
    with sqlite_store.read() as session:
        assert [n.topic for n in current_notes(session, 1)] == ["knee"]
    erase_fact(sqlite_store, "ana", "brace")
    with sqlite_store.read() as session:
        assert note_history(session, 1) == []
    assert "brace" not in say("hello").prompt.text


def test_erasing_a_fact_erases_a_note_holding_its_words(sqlite_store: Store) -> None:
    person_id = _person(sqlite_store, "ana")
    provider = script(
        {
            "message": "remember this",
            "intent": "remember_about_me",
            "params": {"personal_fact": "at the clinic on Fridays"},
        },
        {
            "message": "yes",
            "intent": "remember_about_me",
            "params": {"personal_fact": "at the clinic on Fridays"},
        },
    )
    with sqlite_store.write() as session:
        write_note(
            session,
            person_id,
            checked_note("mum", "At the clinic on Fridays"),
            at=utcnow(),
            written_by="t",
        )
        write_note(
            session, person_id, checked_note("car", "At the shop"), at=utcnow(), written_by="t"
        )
    for message in ("remember this", "yes"):
        converse(
            sqlite_store,
            person="ana",
            message=message,
            providers=Providers.of(provider, ScriptedProvider([])),
        )
    erase_fact(sqlite_store, "ana", "clinic")
    with sqlite_store.read() as session:
        assert [n.topic for n in note_history(session, person_id)] == ["car"]


def test_a_status_act_is_noted_by_the_core_and_the_template_responder_searches_the_past(
    sqlite_store: Store,
) -> None:
    from pipeline.providers.local.responder import LocalResponder

    _person(sqlite_store, "ana")
    said = "I booked the dentist for the ninth of March"
    asked = "what did I say about the dentist?"
    status = "the car is at the shop until Friday"
    classifier = script(
        *({"message": m, "intent": "general_conversation"} for m in (said, asked)),
        {
            "message": status,
            "acts": [
                {
                    "intent": "general_conversation",
                    "status": {"topic": "car", "text": "The car is at the shop until Friday"},
                }
            ],
        },
    )

    def say(message: str) -> TurnOutcome:
        return converse(
            sqlite_store,
            person="ana",
            message=message,
            providers=Providers.of(classifier, LocalResponder(), lexicon=ENGLISH),
        )

    assert say(said).status_notes == ()
    recalled = say(asked)
    assert "ninth of March" in recalled.reply.text
    assert recalled.companion_turn.meta["responder"]["tools"] == [
        {"name": "search_memory", "ok": True}
    ]
    noted = say(status)
    assert "Noted: The car is at the shop until Friday." in noted.reply.text
    assert [(n.topic, n.text) for n in noted.status_notes] == [
        ("car", "The car is at the shop until Friday")
    ]
