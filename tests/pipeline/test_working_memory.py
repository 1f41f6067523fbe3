"""Working memory (TTL, budget, malformed documents), settings, and the session context a new
session starts from (specification 001 as issue 12 adapts it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from pipeline.converse import TurnOutcome, converse
from pipeline.domain import ActorKind, Engagement, HistoryActor, NormativeForce, Person
from pipeline.errors import InvalidMessage
from pipeline.memory.session import write_working_memory
from pipeline.memory.working import TITLE, document, readable, truncated
from pipeline.providers.base import Providers
from pipeline.settings import Settings, settings
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person
from pipeline.store.sessions import put_working_document, reset_sessions, working_document
from tests.conftest import script

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
SUMMARY = "Ana's car is at the shop until Friday; she was deciding between two tile colours."


def test_a_document_has_its_headers_and_reads_back_until_it_expires() -> None:
    text = document(SUMMARY, T0, ttl_days=14, budget_tokens=1_000)
    assert text.splitlines()[:3] == [
        TITLE,
        "Updated: 2026-05-04T09:00:00Z",
        "Expires: 2026-05-18T09:00:00Z",
    ]
    fresh = readable(text, T0 + timedelta(days=13))
    assert fresh is not None and fresh.summary == SUMMARY
    assert readable(text, T0 + timedelta(days=14)) is None


def test_an_old_document_is_ignored() -> None:
    old = f"{TITLE}\nUpdated: 2025-01-01T00:00:00Z\nExpires: 2025-01-02T00:00:00Z\n\n{SUMMARY}\n"
    assert readable(old, T0) is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "just some words",
        f"{TITLE}\nUpdated: yesterday\nExpires: 2027-01-01T00:00:00Z\n\n{SUMMARY}",
        f"{TITLE}\nExpires: 2027-01-01T00:00:00Z\n\n{SUMMARY}",
        f"{TITLE}\nUpdated: 2026-05-04T09:00:00Z\nExpires: 2026-05-03T09:00:00Z\n\n{SUMMARY}",
        f"{TITLE}\nUpdated: 2026-05-04T09:00:00Z\nExpires: 2027-01-01T00:00:00Z\n\n   ",
        f"# Notes\nUpdated: 2026-05-04T09:00:00Z\nExpires: 2027-01-01T00:00:00Z\n\n{SUMMARY}",
    ],
)
def test_a_malformed_document_is_ignored_without_error(text: str) -> None:
    assert readable(text, T0) is None


def test_a_summary_over_budget_is_cut_at_a_word_to_the_budget() -> None:
    long = " ".join(["word"] * 500)  # 2,499 characters
    cut = truncated(long, budget_tokens=100)
    assert len(cut) <= 400 and cut.endswith("…") and not cut.endswith(" …")
    assert truncated(SUMMARY, budget_tokens=100) == SUMMARY


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CONVERSE_WORKING_MEMORY_TTL_DAYS", "0"),
        ("CONVERSE_WORKING_MEMORY_TTL_DAYS", "366"),
        ("CONVERSE_WORKING_MEMORY_BUDGET_TOKENS", "99"),
        ("CONVERSE_WORKING_MEMORY_BUDGET_TOKENS", "4001"),
        ("CONVERSE_COALESCE_WINDOW_S", "soon"),
        ("CONVERSE_SESSION_GAP_HOURS", "0"),
    ],
)
def test_a_setting_out_of_range_names_itself(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(InvalidMessage, match=name):
        settings()


def test_the_defaults() -> None:
    defaults = Settings()
    assert (defaults.working_memory_ttl_days, defaults.working_memory_budget_tokens) == (14, 1_000)
    assert defaults.proactive_greeting is False


def _turn(store: Store, message: str, now: datetime, person: str = "ana") -> TurnOutcome:
    provider = script()  # every message unscripted: general conversation
    return converse(
        store, person=person, message=message, now=now, providers=Providers.of(provider, provider)
    )


def _part(outcome: TurnOutcome, family: str) -> str:
    return "".join(text for f, text in outcome.prompt.parts if f == family)


@pytest.fixture
def ana(store: Store, make_person: Callable[..., tuple[Person, Engagement]]) -> Person:
    person, _ = make_person(store)
    with store.write() as session:
        assert person.personal_engagement_id is not None
        fact = repo.add_assertion(
            session, person.personal_engagement_id, "You live in Porto", ActorKind.COMPANION
        )
        repo.set_force(session, fact.id, NormativeForce.COMMITTED, by=HistoryActor.CLI)
        write_working_memory(session, person.id, SUMMARY, T0 - timedelta(days=1), Settings())
    return person


def test_a_new_session_starts_from_profile_and_working_memory(store: Store, ana: Person) -> None:
    first = _turn(store, "morning!", T0)
    context = _part(first, "session_context")
    assert "You live in Porto" in context and SUMMARY in context
    assert [f for f, _ in first.prompt.parts][:2] == ["persona", "session_context"]
    assert "greet" not in context  # proactive_greeting is off by default

    later = _turn(store, "what was I saying?", T0 + timedelta(minutes=5))
    assert SUMMARY in _part(later, "session_context")
    assert "Porto" not in _part(later, "session_context")  # the profile is a session-start part
    assert _part(later, "persona") == _part(first, "persona")  # the base is never rewritten


def test_a_session_keeps_its_working_memory_until_the_next_session(
    store: Store, ana: Person
) -> None:
    _turn(store, "hello", T0)
    with store.write() as session:
        write_working_memory(session, ana.id, "The car is fixed.", T0, Settings())
    same = _turn(store, "and now?", T0 + timedelta(hours=1))
    assert SUMMARY in _part(same, "session_context")
    after_gap = _turn(store, "hi again", T0 + timedelta(hours=8))
    assert "The car is fixed." in _part(after_gap, "session_context")


def test_reset_starts_a_new_session(store: Store, ana: Person) -> None:
    _turn(store, "hello", T0)
    with store.write() as session:
        write_working_memory(session, ana.id, "The car is fixed.", T0, Settings())
        assert reset_sessions(session, ana.id, T0) == 1
    fresh = _turn(store, "hi", T0 + timedelta(minutes=1))
    assert "The car is fixed." in _part(fresh, "session_context")
    assert "Porto" in _part(fresh, "session_context")


def test_the_greeting_is_asked_for_only_at_a_session_start(
    store: Store, ana: Person, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_PROACTIVE_GREETING", "true")
    assert "greet ana" in _part(_turn(store, "hello", T0), "session_context")
    later = _turn(store, "so", T0 + timedelta(minutes=1))
    assert "greet" not in _part(later, "session_context")


def test_expired_or_malformed_working_memory_is_left_out(store: Store, ana: Person) -> None:
    with store.write() as session:
        put_working_document(session, ana.id, "# Working Memory\nUpdated: soon\n\nx", T0)
    outcome = _turn(store, "hello", T0)
    assert "Working Memory" not in outcome.prompt.text
    assert "Porto" in _part(outcome, "session_context")
    with store.write() as session:
        expired = document(SUMMARY, T0 - timedelta(days=30), ttl_days=14, budget_tokens=1_000)
        put_working_document(session, ana.id, expired, T0)
        reset_sessions(session, ana.id, T0)
    assert SUMMARY not in _turn(store, "hi", T0 + timedelta(minutes=1)).prompt.text


def test_one_persons_working_memory_never_reaches_another(store: Store, ana: Person) -> None:
    with store.write() as session:
        bo = create_person(session, "bo")
        write_working_memory(session, bo.id, "Bo's secret plan for the party.", T0, Settings())
    outcome = _turn(store, "hello", T0)
    assert "secret plan" not in outcome.prompt.text
    with store.read() as session:
        assert "secret plan" in (working_document(session, bo.id) or "")


def test_a_bad_setting_stores_nothing(
    store: Store, ana: Person, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_WORKING_MEMORY_TTL_DAYS", "400")
    with pytest.raises(InvalidMessage, match="CONVERSE_WORKING_MEMORY_TTL_DAYS"):
        _turn(store, "hello", T0)
    monkeypatch.delenv("CONVERSE_WORKING_MEMORY_TTL_DAYS")
    assert "Porto" in _part(_turn(store, "hello", T0), "session_context")  # still a new session
