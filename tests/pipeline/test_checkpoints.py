"""Checkpoints (pipeline/checkpoint.py, pipeline/store/checkpoints.py): the pipeline's state
of each conversation, one JSON row per person and conversation, upserted with every stored
turn; a process killed between or during turns leaves the state of the last stored turn, and
a restarted process resumes from it (docs/reliability.md, "Checkpoints")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select, update

from pipeline.checkpoint import ConversationState, load_state
from pipeline.converse import converse
from pipeline.domain import NormativeForce
from pipeline.providers.base import Providers
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project
from pipeline.store.tables import CheckpointRow
from pipeline.store.turns import recent_history
from tests.conftest import script

ROOT = Path(__file__).resolve().parents[2]
FACT = "You're allergic to cherimoyas"
PROVIDER = script(
    {
        "message": "I'm allergic to cherimoyas",
        "intent": "remember_about_me",
        "params": {"personal_fact": FACT},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    {"message": "how are you?", "intent": "general_conversation"},
)


def _people(store: Store) -> tuple[int, int]:
    with store.write() as session:
        ana = create_person(session, "ana")
        garden = create_project(session, ana, "Garden", "")
        create_person(session, "bo")
    return ana.id, garden.id


def _say(store: Store, message: str, person: str = "ana", project: str | None = "Garden"):
    return converse(
        store,
        person=person,
        project=project,
        message=message,
        providers=Providers.of(PROVIDER, PROVIDER),
    )


def _state(url: str, person_id: int, engagement_id: int | None) -> ConversationState:
    reopened = open_store(url)
    try:
        with reopened.read() as session:
            return load_state(session, person_id, engagement_id)
    finally:
        reopened.dispose()


def test_each_turn_upserts_one_row_per_conversation(store: Store) -> None:
    ana, garden = _people(store)
    first = _say(store, "I'm allergic to cherimoyas")
    assert first.checkpoint is not None
    assert (first.checkpoint.turns, first.checkpoint.awaiting) == (1, "confirm_fact")
    _say(store, "yes")
    _say(store, "how are you?", project=None)
    personal = _personal(store)
    with store.read() as session:
        rows = session.execute(
            select(CheckpointRow.person_id, CheckpointRow.conversation, func.count())
            .group_by(CheckpointRow.person_id, CheckpointRow.conversation)
            .order_by(CheckpointRow.conversation)
        ).all()
        fact = repo.get_by_number(session, personal, 1)
        in_project = load_state(session, ana, garden)
        outside = load_state(session, ana, None)
    assert [tuple(r) for r in rows] == [(ana, "general", 1), (ana, f"project:{garden}", 1)]
    assert fact.force is NormativeForce.COMMITTED
    assert (in_project.turns, in_project.last_intent, in_project.last_action) == (
        2,
        "remember_about_me",
        "committed",
    )
    assert (in_project.awaiting, in_project.awaiting_memory_id) == (None, None)
    assert (outside.turns, outside.last_intent) == (1, "general_conversation")


def _personal(store: Store) -> int:
    from pipeline.store.people import get_person

    with store.read() as session:
        found = get_person(session, "ana").personal_engagement_id
    assert found is not None
    return found


def _child(url: str, markers: Path, mode: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, str(ROOT / "tests/pipeline/checkpoint_child.py"), url]
    return subprocess.Popen([*command, str(markers), mode], env=env, cwd=ROOT)


def _killed_at(child: subprocess.Popen[bytes], marker: Path) -> None:
    deadline = time.monotonic() + 90
    while not marker.exists():
        assert child.poll() is None, "the child process ended early"
        assert time.monotonic() < deadline, f"no {marker.name} marker within 90 s"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(30)


def _check_resumed_after_first_turn(url: str, store: Store, ana: int, garden: int) -> None:
    state = _state(url, ana, garden)
    with store.read() as session:
        turns = recent_history(session, ana, garden, 10)
        held = repo.get_by_number(session, _personal(store), 1)
    assert len(turns) == 2 and held.force is NormativeForce.HELD
    assert state.turns == 1
    assert (state.awaiting, state.awaiting_number, state.awaiting_memory_id) == (
        "confirm_fact",
        1,
        held.id,
    )
    assert state.last_action == "held" and not state.recovered
    # the restarted process goes on from there: "yes" confirms the held fact
    outcome = _say(store, "yes")
    assert outcome.checkpoint is not None
    assert outcome.checkpoint.turns == 2
    assert outcome.checkpoint.last_operator_turn_id == outcome.operator_turn.id
    assert outcome.checkpoint.last_companion_turn_id == outcome.companion_turn.id
    assert _state(url, ana, garden) == outcome.checkpoint
    with store.read() as session:
        assert repo.get_assertion(session, held.id).force is NormativeForce.COMMITTED


def test_a_process_killed_between_turns_resumes_from_its_checkpoint(
    tmp_path: Path, db_url: str
) -> None:
    store = open_store(db_url)
    try:
        ana, garden = _people(store)
        _killed_at(_child(db_url, tmp_path, "between-turns"), tmp_path / "stored")
        _check_resumed_after_first_turn(db_url, store, ana, garden)
    finally:
        store.dispose()


def test_a_process_killed_mid_turn_leaves_the_last_stored_state(
    tmp_path: Path, db_url: str
) -> None:
    store = open_store(db_url)
    try:
        ana, garden = _people(store)
        _killed_at(_child(db_url, tmp_path, "mid-turn"), tmp_path / "in-flight")
        _check_resumed_after_first_turn(db_url, store, ana, garden)
    finally:
        store.dispose()


def test_one_persons_checkpoint_is_not_anothers(store: Store) -> None:
    ana, garden = _people(store)
    _say(store, "I'm allergic to cherimoyas")
    with store.read() as session:
        from pipeline.store.people import get_person

        bo = get_person(session, "bo").id
        assert load_state(session, bo, garden) == ConversationState()
        assert load_state(session, bo, None) == ConversationState()
        assert load_state(session, ana, garden).turns == 1


def test_a_damaged_checkpoint_is_replaced_and_nothing_stored_is_lost(store: Store) -> None:
    ana, garden = _people(store)
    _say(store, "I'm allergic to cherimoyas")
    with store.write() as session:
        session.execute(update(CheckpointRow).values(state={"turns": "many", "colour": 1}))
    with store.read() as session:
        assert load_state(session, ana, garden) == ConversationState(recovered=True)
    outcome = _say(store, "yes")  # the conversation goes on: the offer is confirmed
    assert outcome.route.operation_data["action"] == "committed"
    with store.read() as session:
        state = load_state(session, ana, garden)
        assert len(recent_history(session, ana, garden, 10)) == 4
    assert (state.turns, state.recovered, state.last_action) == (1, False, "committed")
