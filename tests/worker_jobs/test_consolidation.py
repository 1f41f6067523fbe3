"""The consolidation job: restatements merged reversibly, distinct neighbours kept, pairs
compared once in 14 days, at most N a day, never across people; a model's malformed answer
is retried once and then recorded, with the deterministic rule deciding instead."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from pipeline.clock import utcnow
from pipeline.conversations.stages import FALLBACK, RETRY_NOTE
from pipeline.domain import HistoryActor, HistoryOp, NormativeForce
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.history import history_of
from pipeline.store.job_runs import runs_of
from pipeline.store.people import create_person
from pipeline.store.tables import EventRow
from tests.conversations.helpers import FakeModel
from tests.worker_jobs.helpers import facts, live, run


def test_a_restatement_is_merged_into_the_newer_and_can_be_restored(
    store: Store, make_person
) -> None:
    person, _ = make_person(store)
    now = utcnow()
    old, new, other = facts(
        store,
        "ana",
        "You're allergic to shellfish",
        "You are allergic to shellfish",
        "You are allergic to peanuts",
    )
    done = run(store, "ana", now)
    assert (done.claimed, done.checked, done.merged) == (True, 3, 1)
    assert done.methods == {FALLBACK}
    assert live(store, "ana") == ["You are allergic to shellfish", "You are allergic to peanuts"]
    with store.write() as session:
        merged = repo.get_assertion(session, old.id)
        assert merged.force is NormativeForce.RETRACTED
        assert merged.content == "You're allergic to shellfish"  # nothing lost
        rows = history_of(session, merged.engagement_id, merged.display_number)
        assert rows[-1].op is HistoryOp.MERGE
        assert rows[-1].detail["merged_into"] == new.display_number
        kept = history_of(session, new.engagement_id, new.display_number)
        assert (
            kept[-1].op is HistoryOp.MERGE and kept[-1].detail["merged_from"] == old.display_number
        )
        repo.set_force(session, old.id, NormativeForce.COMMITTED, by=HistoryActor.CLI)
        restored = history_of(session, merged.engagement_id, merged.display_number)[-1]
        assert restored.op is HistoryOp.RESTORE
        events = session.execute(
            select(EventRow.node, EventRow.op, EventRow.status).where(
                EventRow.person_id == person.id
            )
        ).all()
    assert ("worker", "consolidate", "merged") in events
    assert ("worker", "consolidate", "distinct") in events
    assert other.content in live(store, "ana")
    assert len(live(store, "ana")) == 3


def test_the_day_is_claimed_once_and_pairs_are_skipped_for_14_days(
    store: Store, make_person
) -> None:
    make_person(store)
    now = utcnow()
    made = facts(store, "ana", "You like green tea", "You like green tea with honey")
    with store.write() as session:  # important: in the pool however old
        for fact in made:
            repo.set_importance(session, fact.id, 0.9, by=HistoryActor.CLI)
    first = run(store, "ana", now)
    assert (first.checked, first.merged) == (1, 0)  # not a restatement: kept apart
    # later the same (UTC) day, whatever the hour the test runs at
    same_day = min(now + timedelta(hours=2), now.replace(hour=23, minute=59, second=59))
    assert not run(store, "ana", same_day).claimed
    later = run(store, "ana", now + timedelta(days=1))
    assert (later.candidates, later.skipped_fingerprint, later.checked) == (1, 1, 0)
    after = run(store, "ana", now + timedelta(days=15))
    assert (after.skipped_fingerprint, after.checked) == (0, 1)
    with store.read() as session:
        runs = runs_of(session, 1)
    assert [r.status for r in runs] == ["done"] * 3
    assert runs[0].counts["checked"] == 1


def test_at_most_n_pairs_a_day(store: Store, make_person) -> None:
    make_person(store)
    now = utcnow()
    facts(store, "ana", *[f"You own a red bike number {n}" for n in range(6)])
    done = run(store, "ana", now, pairs_per_day=4)
    assert done.candidates == 15
    assert done.checked == 4
    rest = run(store, "ana", now + timedelta(days=1), pairs_per_day=4)
    assert (rest.skipped_fingerprint, rest.checked) == (4, 4)


def test_never_across_people(store: Store, make_person) -> None:
    make_person(store)
    with store.write() as session:
        create_person(session, "ben")
    now = utcnow()
    facts(store, "ana", "You are allergic to shellfish")
    facts(store, "ben", "You're allergic to shellfish")
    assert run(store, "ana", now).candidates == 0
    assert run(store, "ben", now).candidates == 0
    assert live(store, "ana") == ["You are allergic to shellfish"]
    assert live(store, "ben") == ["You're allergic to shellfish"]


def test_old_memories_outside_the_pool_are_not_compared(store: Store, make_person) -> None:
    make_person(store)
    now = utcnow()
    facts(store, "ana", "You're a nurse", "You are a nurse", at=now - timedelta(days=10))
    assert run(store, "ana", now).candidates == 0  # neither recent, important nor retrieved


def test_a_model_decides_in_batches(store: Store, make_person) -> None:
    make_person(store)
    now = utcnow()
    facts(store, "ana", "You work as a nurse", "You work as a nurse at the clinic")
    model = FakeModel(
        {"consolidation_same_fact": [json.dumps({"verdicts": [{"pair": 1, "same_fact": True}]})]}
    )
    done = run(store, "ana", now, generator=model)
    assert (done.checked, done.merged, done.methods) == (1, 1, {"fake scripted"})
    assert live(store, "ana") == ["You work as a nurse at the clinic"]
    sent = model.sent[0]
    assert sent.schema_name == "consolidation_same_fact"
    assert (
        "You work as a nurse" in sent.user
        and sent.prompt_refs[0].family == "consolidation_same_fact"
    )


def test_a_malformed_answer_is_retried_then_recorded_and_the_rule_decides(
    store: Store, make_person
) -> None:
    make_person(store)
    now = utcnow()
    facts(store, "ana", "You work as a nurse", "You work as a nurse at the clinic")
    bad = [json.dumps({"verdicts": [{"pair": 1, "same": "yes"}]}), "not json"]
    model = FakeModel({"consolidation_same_fact": list(bad)})
    done = run(store, "ana", now, generator=model)
    assert len(model.sent) == 2 and RETRY_NOTE in model.sent[1].user
    assert done.methods == {FALLBACK} and len(done.errors) == 1
    assert "gave no usable same_fact answer" in done.errors[0]
    assert done.merged == 0  # a paraphrase is not a restatement: kept, nothing lost
    assert len(live(store, "ana")) == 2


def test_an_answer_for_other_pairs_is_refused(store: Store, make_person) -> None:
    make_person(store)
    now = utcnow()
    facts(store, "ana", "You work as a nurse", "You work as a nurse at the clinic")
    wrong = json.dumps({"verdicts": [{"pair": 2, "same_fact": True}]})
    model = FakeModel({"consolidation_same_fact": [wrong, wrong]})
    done = run(store, "ana", now, generator=model)
    assert done.merged == 0 and "pairs 1..1" in done.errors[0]
