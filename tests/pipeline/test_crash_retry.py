"""A `converse chat -m` process killed mid-turn leaves nothing half-stored, and a resend
duplicates nothing (docs/reliability.md, "Erasure and crashes").

The kill points are made deterministic without touching production code: the Claude provider
talks to a loopback server that stalls the chosen call until the test has killed the process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from evals.cassettes import synthetic_answers
from evals.loopback import LoopbackServer, load_answers
from evals.loopback.server import request_kind
from pipeline.domain import NormativeForce, Role
from pipeline.memory.manage import personal_assertions
from pipeline.store import Store, open_store
from pipeline.store.people import create_person, get_person
from pipeline.store.tables import TurnAssertionRow
from pipeline.store.turns import recent_turns
from tests.conftest import script

ROOT = Path(__file__).resolve().parents[2]
ALLERGY = "You're allergic to shellfish"
TELL = "I'm allergic to shellfish"


class StallingServer(LoopbackServer):
    """Answers like the loopback, except that the first request of `kind` for `message`
    never gets an answer: `stalled` is set when it arrives."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(load_answers(synthetic_answers()))
        self._stall = (kind, message)
        self.stalled = threading.Event()
        self._release = threading.Event()

    def answer(self, body: Any) -> tuple[int, str, dict[str, str]]:
        kind = request_kind(body)
        last = body["messages"][-1]["content"]
        text = last if isinstance(last, str) else " ".join(b.get("text", "") for b in last)
        if (kind, text.strip()) == self._stall and not self.stalled.is_set():
            self.stalled.set()
            self._release.wait(60)
        return super().answer(body)

    def close(self) -> None:
        self._release.set()
        super().close()


@pytest.fixture
def world(db_url: str) -> Iterator[Store]:
    store = open_store(db_url)
    with store.write() as session:
        create_person(session, "ana")
    yield store
    store.dispose()


def _env(server: LoopbackServer) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ANTHROPIC_API_KEY": "loopback-key",
        "ANTHROPIC_BASE_URL": server.url,
        "CONVERSE_CLAUDE_MAX_RETRIES": "0",
        "CONVERSE_PROVIDER": "claude",
    }


def _chat(store: Store, message: str) -> list[str]:
    url = store.engine.url.render_as_string(hide_password=False)
    code = "from evals.cli import main; main()"
    return [sys.executable, "-c", code, "chat", "-p", "ana", "-m", message, "--db-url", url]


def _say(store: Store, server: LoopbackServer, message: str) -> None:
    done = subprocess.run(
        _chat(store, message), env=_env(server), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr + done.stdout


def _killed_during(store: Store, server: StallingServer, message: str) -> None:
    process = subprocess.Popen(
        _chat(store, message),
        env=_env(server),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert server.stalled.wait(120), "the stalled call never arrived"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    assert process.returncode == -signal.SIGKILL


def _state(store: Store) -> tuple[list[tuple[str, NormativeForce]], list[tuple[Role, str]], int]:
    with store.read() as session:
        person = get_person(session, "ana")
        facts = personal_assertions(session, person, include_retracted=True)
        turns = recent_turns(session, person.id, None, 100)
        links = session.scalar(select(func.count()).select_from(TurnAssertionRow)) or 0
    return (
        [(a.content, a.force) for a in facts],
        [(t.role, t.content) for t in turns],
        int(links),
    )


OFFER = (Role.COMPANION, "I'll remember that you're allergic to shellfish — is that right?")
GOT_IT = (Role.COMPANION, "Got it, I'll remember that.")


def test_killed_between_classify_and_reply_stores_nothing_and_a_resend_stores_once(
    world: Store,
) -> None:
    with StallingServer("respond", TELL) as server:
        _killed_during(world, server, TELL)
        assert _state(world) == ([], [], 0)

        _say(world, server, TELL)
        assert _state(world) == (
            [(ALLERGY, NormativeForce.HELD)],
            [(Role.OPERATOR, TELL), OFFER],
            2,
        )

        _say(world, server, "yes")
    assert _state(world) == (
        [(ALLERGY, NormativeForce.COMMITTED)],
        [(Role.OPERATOR, TELL), OFFER, (Role.OPERATOR, "yes"), GOT_IT],
        4,
    )


def test_killed_between_turns_keeps_the_finished_turn_and_a_resend_duplicates_nothing(
    world: Store,
) -> None:
    with StallingServer("classify", "yes") as server:
        _say(world, server, TELL)
        _killed_during(world, server, "yes")
        assert _state(world) == (
            [(ALLERGY, NormativeForce.HELD)],
            [(Role.OPERATOR, TELL), OFFER],
            2,
        )

        _say(world, server, "yes")
        _say(world, server, TELL)  # the person repeats themselves, unsure what was kept
    facts, turns, _ = _state(world)
    assert facts == [(ALLERGY, NormativeForce.COMMITTED)]
    assert [role for role, _ in turns] == [Role.OPERATOR, Role.COMPANION] * 3


remember = script(
    {"message": TELL, "intent": "remember_about_me", "params": {"personal_fact": ALLERGY}},
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    {
        "message": "I live in Lisbon",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You live in Lisbon"},
    },
    {
        "message": "i'm ALLERGIC to shellfish",
        "intent": "remember_about_me",
        "params": {"personal_fact": "you're allergic to  SHELLFISH"},
    },
)


def test_restating_a_held_fact_is_not_a_new_fact(store: Store, make_person, say) -> None:
    make_person(store)
    say(store, remember, TELL)
    say(store, remember, "I live in Lisbon")  # a second offer: #1 is no longer the one offered

    again = say(store, remember, "i'm ALLERGIC to shellfish")

    assert again.route.operation_data == {
        "action": "held",
        "personal_fact": ALLERGY,
        "assertion_display_number": 1,
    }
    assert again.route.changes == ()
    assert [(a.content, a.force) for a in _facts(store)] == [
        ("You live in Lisbon", NormativeForce.HELD),
        (ALLERGY, NormativeForce.HELD),
    ]


def test_restating_a_committed_fact_is_not_a_new_fact(store: Store, make_person, say) -> None:
    make_person(store)
    say(store, remember, TELL)
    say(store, remember, "yes")

    again = say(store, remember, TELL)

    assert again.route.operation_data["action"] == "already_known"
    assert [(a.content, a.force) for a in _facts(store)] == [(ALLERGY, NormativeForce.COMMITTED)]


def _facts(store: Store) -> list[Any]:
    with store.read() as session:
        return personal_assertions(session, get_person(session, "ana"), include_retracted=True)
