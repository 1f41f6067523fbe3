"""Operational events (pipeline/store/events.py): written with the operation they count
(a turn's classification, writes, forget matching and recall; the lifecycle sweep;
memory.query), never a word of the person's, and counted by `converse stats`."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.domain import ActorKind, NormativeForce
from pipeline.errors import ProviderError
from pipeline.memory.query import MemoryQuery, memory_query
from pipeline.providers.base import Providers
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.events import event_counts
from pipeline.store.lifecycle import Policy, sweep
from pipeline.store.people import get_person
from pipeline.store.tables import AssertionRow, EventRow
from tests.conftest import script

runner = CliRunner()
FACT = "You're allergic to cherimoyas"
provider = script(
    {
        "message": "I'm allergic to cherimoyas",
        "intent": "remember_about_me",
        "params": {"personal_fact": FACT},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    {
        "message": "what am I allergic to?",
        "intent": "ask_about_past_input",
        "params": {"query": "allergic"},
    },
    {
        "message": "forget my cherimoya allergy",
        "intent": "forget_about_me",
        "params": {"forget_description": "cherimoya allergy"},
    },
    {
        "message": "yes",
        "after": "forget_about_me",
        "intent": "forget_about_me",
        "params": {"forget_description": "cherimoya allergy"},
    },
    {
        "message": "forget my kiwi thing",
        "intent": "forget_about_me",
        "params": {"forget_description": "kiwi"},
    },
)


def _events(store: Store) -> list[tuple]:
    with store.read() as session:
        rows = session.execute(
            select(
                EventRow.person_id,
                EventRow.conversation,
                EventRow.node,
                EventRow.op,
                EventRow.status,
                EventRow.memory_id,
                EventRow.category,
            ).order_by(EventRow.id)
        )
        return [tuple(r) for r in rows]


def _talk(store: Store, say, project: str | None = None) -> None:
    for message in (
        "I'm allergic to cherimoyas",
        "yes",
        "what am I allergic to?",
        "forget my cherimoya allergy",
        "yes",
        "forget my kiwi thing",
    ):
        say(store, provider, message, project=project)


def test_a_conversation_leaves_one_event_per_operation(store, make_person, say) -> None:
    person, project = make_person(store)
    _talk(store, say, project="Garden")
    with store.read() as session:
        fact = repo.get_by_number(session, person.personal_engagement_id, 1)
    where = (person.id, f"project:{project.id}", "hotpath")
    classify = (*where, "classify", "ok", None, None)
    assert _events(store) == [
        classify,
        (*where, "create", "ok", fact.id, "profile"),
        classify,
        (*where, "update", "ok", fact.id, "profile"),
        classify,
        (*where, "search", "ok", None, None),
        classify,
        (*where, "match", "ok", fact.id, None),
        classify,
        (*where, "retract", "ok", fact.id, "profile"),
        classify,
        (*where, "match", "no_match", None, None),
    ]


def test_a_turn_outside_a_project_is_the_general_conversation(store, make_person, say) -> None:
    make_person(store)
    say(store, provider, "I'm allergic to cherimoyas")
    assert {e[1] for e in _events(store)} == {"general"}


def test_a_turn_that_is_not_stored_leaves_no_event(store, make_person, say) -> None:
    make_person(store)

    class Broken:
        def classify(self, request):
            raise ProviderError("down", "retry")

    with pytest.raises(ProviderError):
        from pipeline.converse import converse

        converse(store, person="ana", message="hello", providers=Providers.of(Broken(), provider))
    assert _events(store) == []


def test_events_hold_no_words_of_the_person(store, make_person, say) -> None:
    make_person(store)
    _talk(store, say)
    with store.read() as session:
        rows = session.execute(select(EventRow)).scalars().all()
    text = repr([[getattr(r, c.key) for c in EventRow.__table__.columns] for r in rows])
    assert "cherimoya" not in text.casefold() and "kiwi" not in text.casefold()


def test_the_sweep_counts_what_it_sets_aside_and_purges(store, make_person) -> None:
    person, _ = make_person(store)
    now = utcnow()
    with store.write() as session:
        a = repo.add_assertion(
            session,
            person.personal_engagement_id,
            "Ana hums",
            ActorKind.OPERATOR,
            NormativeForce.COMMITTED,
            importance=0.1,
            category="events",
        )
        session.execute(update(AssertionRow).values(last_accessed_at=now - timedelta(days=90)))
    with store.write() as session:
        sweep(session, now, Policy())
    with store.write() as session:
        sweep(session, now + timedelta(days=31), Policy())
    assert _events(store) == [
        (person.id, None, "worker", "ttl", "ok", a.id, "events"),
        (person.id, None, "worker", "purge", "ok", a.id, "events"),
    ]


def test_memory_query_is_counted(store, make_person) -> None:
    person, _ = make_person(store)
    with store.write() as session:
        memory_query(session, MemoryQuery(person="ana"))
    assert _events(store) == [(person.id, None, "tool", "query", "no_match", None, None)]


def test_counts_group_by_period_node_op_and_status(store, make_person, say) -> None:
    make_person(store)
    _talk(store, say)
    with store.read() as session:
        by_day = event_counts(session, by="day")
        by_hour = event_counts(session, by="hour")
        future = event_counts(session, since=utcnow() + timedelta(hours=1), by="day")
    today = utcnow().strftime("%Y-%m-%d")
    assert {(c.bucket, c.op, c.status, c.count) for c in by_day} == {
        (today, "classify", "ok", 6),
        (today, "create", "ok", 1),
        (today, "update", "ok", 1),
        (today, "search", "ok", 1),
        (today, "match", "ok", 1),
        (today, "match", "no_match", 1),
        (today, "retract", "ok", 1),
    }
    assert all(c.bucket.startswith(today + "T") and c.bucket.endswith(":00") for c in by_hour)
    assert future == []


def test_stats_command_table_json_person_and_errors(db_url, say) -> None:
    store = open_store(db_url)
    from pipeline.store.people import create_person

    with store.write() as session:
        create_person(session, "ana")
        create_person(session, "bo")
    _talk(store, say)
    say(store, provider, "I'm allergic to cherimoyas", person="bo")
    store.dispose()
    base = ["stats", "--db-url", db_url]
    table = runner.invoke(app, base)
    assert table.exit_code == 0, table.output
    assert "Memory operations since" in table.output and "classify" in table.output
    data = json.loads(runner.invoke(app, [*base, "--json", "--by", "hour"]).output)
    assert data["by"] == "hour"
    total = {(c["op"], c["status"]): c["n"] for c in data["counts"]}
    assert total[("classify", "ok")] == 7 and total[("create", "ok")] == 2
    bo = json.loads(runner.invoke(app, [*base, "--json", "--person", "bo"]).output)
    assert {(c["op"], c["n"]) for c in bo["counts"]} == {("classify", 1), ("create", 1)}
    for bad, said in [
        (["--by", "week"], "--by 'week' is not day or hour"),
        (["--since", "yesterday"], "--since 'yesterday' is neither a duration nor a date"),
        (["--person", "zed"], "zed"),
    ]:
        result = runner.invoke(app, [*base, *bad])
        assert result.exit_code == 2, result.output
        assert said in result.output and len(result.output.strip().splitlines()) == 1
    empty = runner.invoke(app, [*base, "--since", "2999-01-01"])
    assert empty.exit_code == 0 and "No events since 2999-01-01" in empty.output
    with open_store(db_url).read() as session:
        assert get_person(session, "bo").name == "bo"
