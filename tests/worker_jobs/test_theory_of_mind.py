"""The theory-of-mind job: at most one pass per person in 24 h, only with new activity, every
insight checked by the writing rules (a failing one rejected and counted), stored as a
low-weight relationship_dynamic memory; no model, no insight."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from pipeline.clock import utcnow
from pipeline.conversations.stages import RETRY_NOTE
from pipeline.domain import NormativeForce
from pipeline.english import ENGLISH
from pipeline.jobs import reflect
from pipeline.jobs.theory_of_mind import CATEGORY, INSIGHT_IMPORTANCE
from pipeline.lexicon import Lexicon
from pipeline.prompting import default_library
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.job_runs import runs_of
from pipeline.store.people import get_person
from pipeline.store.tables import EventRow
from tests.conversations.helpers import FakeModel, talk

GOOD = "Ana opens up more after a hard week when given room to vent first."
SECOND = "Ana values being asked before advice is offered."


def _answer(*summaries: str) -> str:
    return json.dumps(
        {"insights": [{"summary": s, "tags": ["trust"], "importance": 2} for s in summaries]}
    )


def _reflect(store: Store, model: FakeModel | None, hours: float = 0, lexicon: Lexicon = ENGLISH):
    with store.read() as session:
        person = get_person(session, "ana")
    now = utcnow() + timedelta(hours=hours)
    return reflect(
        store, person, now=now, library=default_library(), generator=model, lexicon=lexicon
    )


def _insights(store: Store) -> list[tuple[str, float, bool, NormativeForce]]:
    with store.read() as session:
        personal = get_person(session, "ana").personal_engagement_id
        assert personal is not None
        found = repo.list_assertions(session, personal)
    return [(a.content, a.importance, a.pinned, a.force) for a in found if a.category == CATEGORY]


def test_insights_are_validated_stored_low_and_counted(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "What a week. I just need to vent before anything else.")
    bad = [
        "You seem stressed lately.",  # second person
        "The assistant should be gentler with Ana.",  # about the assistant
        "x" * 300,  # too long
    ]
    model = FakeModel({"theory_of_mind": [_answer(GOOD, *bad[:2])]})
    done = _reflect(store, model)
    assert (done.written, done.rejected) == (1, 2)
    assert _insights(store) == [(GOOD, INSIGHT_IMPORTANCE, False, NormativeForce.COMMITTED)]
    sent = model.sent[0]
    assert "vent before anything else" in sent.user and sent.max_tokens <= 220
    with store.read() as session:
        statuses = session.scalars(
            select(EventRow.status).where(EventRow.node == "worker", EventRow.op == "insight")
        ).all()
    assert sorted(statuses) == ["ok", "rejected", "rejected"]


def test_too_long_insight_is_rejected(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "I finally told my sister how I felt.")
    long = "Ana " + "finds courage in small honest talks with family " * 7
    done = _reflect(store, FakeModel({"theory_of_mind": [_answer(long.strip() + ".")]}))
    assert (done.written, done.rejected) == (0, 1)
    assert any("longer than 280" in p for p in done.problems)
    assert _insights(store) == []


def test_one_pass_in_24_hours_and_only_with_new_activity(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "I finally told my sister how I felt.")
    model = FakeModel({"theory_of_mind": [_answer(GOOD)]})
    assert _reflect(store, model).written == 1
    again = _reflect(store, model, hours=23)
    assert again.skipped == "a pass ran within 24 h" and len(model.sent) == 1
    quiet = _reflect(store, model, hours=25)
    assert quiet.skipped == "no new activity" and len(model.sent) == 1
    talk(store, "ana", "My sister called back and we talked for an hour.")
    model.answers["theory_of_mind"] = [_answer(SECOND)]
    assert _reflect(store, model, hours=25).written == 1
    with store.read() as session:
        assert [r.job for r in runs_of(session, 1)] == ["theory_of_mind", "theory_of_mind"]


def test_no_model_no_insight_and_no_claim(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "I finally told my sister how I felt.")
    done = _reflect(store, None)
    assert done.skipped.startswith("no model") and _insights(store) == []
    with store.read() as session:
        assert runs_of(session, 1) == []


def test_malformed_answer_retried_once_then_recorded(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "I finally told my sister how I felt.")
    model = FakeModel(
        {
            "theory_of_mind": [
                json.dumps({"insights": [{"text": GOOD}]}),
                json.dumps({"insights": "x"}),
            ]
        }
    )
    done = _reflect(store, model)
    assert len(model.sent) == 2 and RETRY_NOTE in model.sent[1].user
    assert done.written == 0 and done.error and "gave no usable insights answer" in done.error
    assert _insights(store) == []
    with store.read() as session:
        assert runs_of(session, 1)[0].counts == {"written": 0, "rejected": 0, "errors": 1}


def test_an_empty_answer_writes_nothing(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "Fine, thanks.")
    done = _reflect(store, FakeModel({"theory_of_mind": [json.dumps({"insights": []})]}))
    assert (done.written, done.rejected, done.error) == (0, 0, None)
    assert _insights(store) == []


def test_insights_are_read_with_the_lexicon_the_bundle_lends(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "What a week. I just need to vent before anything else.")
    french = Lexicon(name="fr", second_person=frozenset({"vous", "votre"}))
    addressed = "Ana vous confie ses soucis le soir."  # in English's words: third person
    done = _reflect(store, FakeModel({"theory_of_mind": [_answer(addressed)]}), lexicon=french)
    assert (done.written, done.rejected) == (0, 1)
    assert done.problems == ["not in the third person"]
