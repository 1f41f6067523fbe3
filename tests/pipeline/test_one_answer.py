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
from pipeline.providers.base import ClassifyRequest, Providers, validated
from pipeline.providers.scripted import ScriptedProvider
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store, open_store
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


def _offered(url: str) -> Store:
    """A store where the companion has just offered to hold FACT."""
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
        create_person(session, "ben")  # whose turn warms each process up
    converse(
        store,
        person="ana",
        message="I'm allergic to shrimp",
        providers=Providers.of(PROVIDER, PROVIDER),
    )
    return store


def _memory(store: Store) -> list[tuple[str, str]]:
    with store.read() as session:
        found = personal_assertions(session, get_person(session, "ana"), include_retracted=True)
        return sorted((a.content, a.force.value) for a in found)


def _serial(folder: Path, first: str, second: str) -> list[tuple[str, str]]:
    store = _offered(f"sqlite:///{folder / 'serial.db'}")
    try:
        for message in (first, second):
            converse(
                store, person="ana", message=message, providers=Providers.of(PROVIDER, PROVIDER)
            )
        return _memory(store)
    finally:
        store.dispose()


def _raced(folder: Path, first: str, second: str) -> list[tuple[str, str]]:
    url = f"sqlite:///{folder / 'raced.db'}"
    store = _offered(url)
    go = folder / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests/pipeline/answer_child.py"), url, str(go), m],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for m in (first, second)
    ]
    deadline = time.monotonic() + 120
    while not all(Path(f"{go}.{m}").exists() for m in (first, second)):
        assert time.monotonic() < deadline, "the answering processes did not start"
        time.sleep(0.01)
    go.write_text("go")
    said = [child.communicate(timeout=120) for child in children]
    assert [c.returncode for c in children] == [0, 0], said
    try:
        return _memory(store)
    finally:
        store.dispose()


@pytest.mark.parametrize(("first", "second"), [("yes", "no"), ("yes", "forget that")])
def test_two_answers_at_once_leave_a_serial_outcome(
    tmp_path: Path, first: str, second: str
) -> None:
    serial = set()
    for n, order in enumerate([(first, second), (second, first)]):
        (tmp_path / f"s{n}").mkdir()
        serial.add(tuple(_serial(tmp_path / f"s{n}", *order)))
    for round_ in range(ROUNDS):
        folder = tmp_path / f"r{round_}"
        folder.mkdir()
        left = tuple(_raced(folder, first, second))
        assert left in serial, f"round {round_}: {left} is neither order's outcome {serial}"
