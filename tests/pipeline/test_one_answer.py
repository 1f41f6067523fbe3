"""Two processes answering one offer at once ("yes" and "no", "yes" and "forget that") are
served one after the other: the second answer is read against what the first stored, so the
memory left is what one of the two orders would leave when said one after the other
(docs/reliability.md, "A turn is stored whole or not at all")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.converse import converse
from pipeline.memory.manage import personal_assertions
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest, Providers
from pipeline.providers.scripted import ScriptedProvider
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store
from pipeline.store.people import create_person, get_person

ROOT = Path(__file__).resolve().parents[2]
FACT = "You're allergic to shrimp"


class Reader(ScriptedProvider):
    """Reads an answer against the companion turn before it, as the local classifier
    (`--provider local`) does: while a fact is offered, "yes" confirms it and "no" or "forget
    that" turns it down; otherwise "forget that" asks to forget the fact just kept."""

    def __init__(self) -> None:
        super().__init__([])

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        prior = request.prior_companion
        offered = prior is not None and prior.operation_data.get("action") == "held"
        said = request.message
        if said == "I'm allergic to shrimp" or (said == "yes" and offered):
            fact, reading = {"personal_fact": FACT}, {"relation": "confirm"} if offered else None
            return validated("remember_about_me", fact, provider="test", reading=reading)
        if offered:
            return validated("general_conversation", {}, provider="test", reading=REJECT)
        if said == "forget that":
            return validated("forget_about_me", {"forget_description": "that"}, provider="test")
        return validated("general_conversation", {}, provider="test")


REJECT = {"relation": "reject"}
PROVIDER = Reader()
ROUNDS = 4


def _offered(store: Store, person: str) -> None:
    """The companion has just offered to hold FACT to `person`."""
    with store.write() as session:
        create_person(session, person)
    converse(
        store, person=person, message="I'm allergic to shrimp",
        providers=Providers.of(PROVIDER, PROVIDER),
    )  # fmt: skip


def _memory(store: Store, person: str) -> list[tuple[str, str]]:
    with store.read() as session:
        found = personal_assertions(session, get_person(session, person), include_retracted=True)
        return sorted((a.content, a.force.value) for a in found)


def _serial(store: Store, person: str, first: str, second: str) -> list[tuple[str, str]]:
    _offered(store, person)
    for message in (first, second):
        converse(store, person=person, message=message, providers=Providers.of(PROVIDER, PROVIDER))
    return _memory(store, person)


def _raced(
    store: Store, url: str, folder: Path, person: str, first: str, second: str
) -> list[tuple[str, str]]:
    _offered(store, person)
    go = folder / f"go-{person}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests/pipeline/answer_child.py"), url, str(go), person, m],
            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for m in (first, second)
    ]  # fmt: skip
    deadline = time.monotonic() + 120
    while not all(Path(f"{go}.{m}").exists() for m in (first, second)):
        assert time.monotonic() < deadline, "the answering processes did not start"
        time.sleep(0.01)
    go.write_text("go")
    said = [child.communicate(timeout=120) for child in children]
    assert [c.returncode for c in children] == [0, 0], said
    return _memory(store, person)


@pytest.mark.parametrize(("first", "second"), [("yes", "no"), ("yes", "forget that")])
def test_two_answers_at_once_leave_a_serial_outcome(
    db_url: str, store: Store, tmp_path: Path, first: str, second: str
) -> None:
    """On SQLite (a lock file per person) and PostgreSQL (an advisory lock); each round is a
    person of its own in one database."""
    with store.write() as session:
        create_person(session, "ben")  # whose turn warms each answering process up
    serial = {
        tuple(_serial(store, f"serial{n}", *order))
        for n, order in enumerate([(first, second), (second, first)])
    }
    for round_ in range(ROUNDS):
        left = tuple(_raced(store, db_url, tmp_path, f"ana{round_}", first, second))
        assert left in serial, f"round {round_}: {left} is neither order's outcome {serial}"
