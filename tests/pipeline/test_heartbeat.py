"""Heartbeats: each rule that keeps the companion quiet, and the message it sends otherwise,
stored in the one conversation the person answers into (specification 002)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.domain import Engagement, Person, Role
from pipeline.heartbeat import CHANNEL, heartbeat, newest_thread
from pipeline.memory.session import write_working_memory
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.turns import add_turn, recent_turns
from tests.conftest import script

NOON = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
SUMMARY = "Ana's van is at the garage until Friday."


def _say(store: Store, person: Person, role: Role, at: datetime, channel: str = "cli") -> None:
    with store.write() as session:
        add_turn(
            session,
            person_id=person.id,
            engagement_id=None,
            role=role,
            content="…",
            intent="general_conversation",
            channel=channel,
            created_at=at,
        )


@pytest.fixture
def ana(store: Store, make_person: Callable[..., tuple[Person, Engagement]]) -> Person:
    person, _ = make_person(store)
    with store.write() as session:
        write_working_memory(session, person.id, SUMMARY, NOON - timedelta(days=1), Settings())
    _say(store, person, Role.OPERATOR, NOON - timedelta(hours=10))
    _say(store, person, Role.COMPANION, NOON - timedelta(hours=10))
    return person


def test_reaches_out_with_the_working_memory_and_joins_the_conversation(
    store: Store, ana: Person
) -> None:
    decision, turn = heartbeat(store, ana, script(), NOON)
    assert decision.reach_out and turn is not None
    assert turn.channel == CHANNEL and turn.role is Role.COMPANION
    assert "van is at the garage until Friday" in turn.content
    with store.read() as session:
        assert recent_turns(session, ana.id, None, 1)[0].id == turn.id


def test_the_newest_thread_is_the_last_line_without_its_speaker() -> None:
    summary = "- Ana said: My van is at the garage\n- Ana said: Lila's play is on Thursday"
    assert newest_thread(summary) == "Lila's play is on Thursday"
    assert newest_thread("Ana is choosing tiles.") == "Ana is choosing tiles."


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (lambda s, p: None, "night hours"),
        (lambda s, p: _say(s, p, Role.OPERATOR, NOON - timedelta(minutes=5)), "under way"),
        (lambda s, p: _say(s, p, Role.COMPANION, NOON - timedelta(hours=2)), "wrote recently"),
    ],
)
def test_quiet_rules(
    store: Store,
    ana: Person,
    setup: Callable[[Store, Person], None],
    reason: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup(store, ana)
    if reason == "night hours":
        monkeypatch.setenv("CONVERSE_HEARTBEAT_UTC_OFFSET_HOURS", "11")  # 23:00 local
    decision, turn = heartbeat(store, ana, script(), NOON)
    assert not decision.reach_out and turn is None
    assert reason in decision.reason


def test_unanswered_messages_stop_it_and_an_answer_resets_the_count(
    store: Store, ana: Person, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_HEARTBEAT_MIN_GAP_HOURS", "0")
    monkeypatch.setenv("CONVERSE_HEARTBEAT_ACTIVE_MINUTES", "1")
    for hours in (1, 2):
        assert heartbeat(store, ana, script(), NOON + timedelta(hours=hours))[1] is not None
    decision, _ = heartbeat(store, ana, script(), NOON + timedelta(hours=3))
    assert decision.reason == "2 earlier messages went unanswered"
    _say(store, ana, Role.OPERATOR, NOON + timedelta(hours=4))
    assert heartbeat(store, ana, script(), NOON + timedelta(hours=5))[0].reach_out


def test_nothing_to_follow_up_without_working_memory(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    decision, turn = heartbeat(store, person, script(), NOON)
    assert turn is None and decision.reason.startswith("nothing to follow up")


def test_dry_run_decides_and_stores_nothing(store: Store, ana: Person) -> None:
    decision, turn = heartbeat(store, ana, None, NOON)
    assert decision.reach_out and turn is None
    with store.read() as session:
        assert all(t.channel != CHANNEL for t in recent_turns(session, ana.id, None, 10))


def test_cli_dry_run_names_each_decision(sqlite_url: str, sqlite_store: Store, make_person) -> None:
    make_person(sqlite_store)
    result = CliRunner().invoke(app, ["heartbeat", "run-once", "--dry-run", "--db-url", sqlite_url])
    assert result.exit_code == 0, result.output
    assert "ana: quiet — " in result.output
