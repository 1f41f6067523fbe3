"""A turn decides once and applies once: one handler run, one write transaction, and the
decision stores nothing by itself (docs/reliability.md, "A turn is stored whole")."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import pytest

import pipeline.turn_phases as phases_module
from pipeline.domain import NormativeForce
from pipeline.intents import HandlerContext, route
from pipeline.memory.manage import personal_assertions
from pipeline.store.people import get_person
from tests.conftest import script

R = "remember_about_me"
PROVIDER = script(
    {"message": "I keep bees on the allotment", "intent": R,
     "params": {"personal_fact": "You keep bees on the allotment"}},
    {"message": "yep", "intent": R, "reading": {"relation": "confirm"}},
)  # fmt: skip


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, store: Any) -> dict[str, int]:
    counts = {"route": 0, "write": 0}
    real_route, real_write = phases_module.route, store.write

    def counting_route(ctx: HandlerContext) -> Any:
        counts["route"] += 1
        return real_route(ctx)

    @contextmanager
    def counting_write() -> Any:
        counts["write"] += 1
        with real_write() as session:
            yield session

    monkeypatch.setattr(phases_module, "route", counting_route)
    monkeypatch.setattr(store, "write", counting_write)
    return counts


@pytest.mark.parametrize("message", ["I keep bees on the allotment", "yep"])
def test_each_turn_runs_its_handler_once_in_one_write_transaction(
    store: Any, make_person: Any, say: Any, counted: dict[str, int], message: str
) -> None:
    make_person(store)
    if message == "yep":
        say(store, PROVIDER, "I keep bees on the allotment")
    counted.update(route=0, write=0)
    outcome = say(store, PROVIDER, message)
    assert outcome.route.operation_data["action"] in ("held", "committed")
    assert counted == {"route": 1, "write": 1}
    assert "redecided" not in outcome.companion_turn.meta


def test_a_decision_alone_stores_nothing(store: Any, make_person: Any, say: Any) -> None:
    person, _ = make_person(store)
    from pipeline.clock import utcnow
    from pipeline.reading import ClassifiedIntent

    classified = ClassifiedIntent(intent=R, params={"personal_fact": "You keep bees"})
    with store.read() as session:
        ctx = HandlerContext(
            session=session, person=person, project=None, classified=classified,
            prior_companion=None, now=utcnow(),
        )  # fmt: skip
        result = route(ctx)
    assert result.operation_data["action"] == "held"
    assert result.operation_data["assertion_display_number"] == 1
    assert len(ctx.decided.commands) == 1
    with store.read() as session:
        assert personal_assertions(session, get_person(session, "ana")) == []


def test_memory_that_moved_during_the_reply_is_decided_again(
    store: Any, make_person: Any, say: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_person(store)
    say(store, PROVIDER, "I keep bees on the allotment")
    real_respond = phases_module._respond

    def respond_while_another_process_writes(*args: Any, **kwargs: Any) -> Any:
        from pipeline.memory.manage import retract

        with store.write() as session:  # the offered fact is forgotten meanwhile
            retract(session, get_person(session, "ana"), 1)
        return real_respond(*args, **kwargs)

    monkeypatch.setattr(phases_module, "_respond", respond_while_another_process_writes)
    outcome = say(store, PROVIDER, "yep")
    assert outcome.companion_turn.meta.get("redecided") is True
    with store.read() as session:
        [fact] = personal_assertions(session, get_person(session, "ana"), include_retracted=True)
    assert fact.force is NormativeForce.RETRACTED  # the retraction is not undone by the "yep"
