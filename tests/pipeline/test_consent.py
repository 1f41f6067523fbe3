"""Consent for sensitive profile fields: a held change of name, pronouns, city or language
(the field stored when it was held) waits for a decision, expires after 7 days, and every decision is in the history
(docs/memory.md, "Consent")."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.domain import ActorKind, HistoryActor, HistoryOp, NormativeForce, ProfileField
from pipeline.english.lexicon import ENGLISH
from pipeline.errors import InvalidMessage
from pipeline.lexicon import NO_LEXICON
from pipeline.memory import consent, load_personal_memory
from pipeline.memory.profile_fields import read_field
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.history import history_of
from pipeline.store.people import get_person
from pipeline.store.tables import AssertionRow

DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("You go by Sam, not Samantha", ProfileField.PREFERRED_NAME),
        ("Your pronouns are they/them", ProfileField.PRONOUNS),
        ("You moved to Toronto last month", ProfileField.CITY),
        ("You're based in Singapore", ProfileField.CITY),
        ("Your native language is Portuguese", ProfileField.LANGUAGE),
        ("You speak Greek at home with your parents", ProfileField.LANGUAGE),
        ("I go by Sam now", ProfileField.PREFERRED_NAME),
        ("You're allergic to shellfish", None),
        ("Your daughter Lila is five", None),
        ("You like living things in the garden", None),
    ],
)
def test_the_english_wording_patterns_name_the_field(
    content: str, field: ProfileField | None
) -> None:
    assert read_field(content, ENGLISH) == field
    assert read_field(content, NO_LEXICON) is None  # a bundle that lends none marks nothing


def _held(store: Store, person: str, *contents: str, days_old: float = 0) -> list[int]:
    """Held facts, each with the field its English wording names (as the local reading or
    the fallback stores it)."""
    with store.write() as session:
        personal = get_person(session, person).personal_engagement_id
        assert personal is not None
        ids = [
            repo.add_assertion(
                session,
                personal,
                c,
                ActorKind.COMPANION,
                NormativeForce.HELD,
                profile_field=read_field(c, ENGLISH),
            ).id
            for c in contents
        ]
        session.execute(
            update(AssertionRow)
            .where(AssertionRow.id.in_(ids))
            .values(created_at=utcnow() - days_old * DAY)
        )
    return ids


def test_the_stored_field_decides_not_the_wording(store: Store, make_person) -> None:
    make_person(store, "ana")
    with store.write() as session:
        personal = get_person(session, "ana").personal_engagement_id
        assert personal is not None
        for content, field in [
            ("You're off to Lisbon for good", ProfileField.CITY),  # no pattern names it
            ("You live in Denver", None),  # the reading said it changes no field
        ]:
            repo.add_assertion(session, personal, content, ActorKind.COMPANION, profile_field=field)
    with store.read() as session:
        waiting = consent.pending(session, get_person(session, "ana"))
    assert [(p.assertion.content, p.field) for p in waiting] == [
        ("You're off to Lisbon for good", ProfileField.CITY)
    ]


def test_only_undecided_sensitive_proposals_expire_after_seven_days(
    store: Store, make_person
) -> None:
    make_person(store, "ana")
    make_person(store, "ben")
    old_city, old_allergy = _held(
        store, "ana", "You live in Denver", "You're allergic to shellfish", days_old=8
    )
    (young_name,) = _held(store, "ana", "You go by Sam", days_old=6)
    (bens,) = _held(store, "ben", "Your pronouns are he/him", days_old=9)

    with store.write() as session:
        expired = consent.expire(session, utcnow())
        again = consent.expire(session, utcnow())

    assert sorted(p.assertion.id for p in expired) == sorted([old_city, bens])
    assert again == []  # a second run finds nothing left to decide
    with store.read() as session:
        forces = {i: repo.get_assertion(session, i).force for i in (old_allergy, young_name)}
        city = repo.get_assertion(session, old_city)
        entry = history_of(session, city.engagement_id, city.display_number)[-1]
    assert forces == {old_allergy: NormativeForce.HELD, young_name: NormativeForce.HELD}
    assert city.force is NormativeForce.RETRACTED
    assert "not confirmed within 7 days" in (city.retraction_rationale or "")
    assert entry.op is HistoryOp.UPDATE and entry.actor is HistoryActor.SYSTEM


def test_accepting_commits_refusing_retracts_and_history_records_who(
    store: Store, make_person
) -> None:
    make_person(store, "ana")
    _held(store, "ana", "You moved to Lisbon", "Your pronouns are she/her", "You like figs")
    with store.write() as session:
        ana = get_person(session, "ana")
        assert [p.field for p in consent.pending(session, ana)] == [
            ProfileField.CITY,
            ProfileField.PRONOUNS,
        ]
        consent.decide(session, ana, 1, True, HistoryActor.CLI)
        consent.decide(session, ana, 2, False, HistoryActor.CLI)
        with pytest.raises(InvalidMessage, match="not a sensitive proposal"):
            consent.decide(session, ana, 3, True, HistoryActor.CLI)
    with store.read() as session:
        ana = get_person(session, "ana")
        personal = ana.personal_engagement_id
        assert personal is not None
        block = load_personal_memory(session, personal)
        accepted = history_of(session, personal, 1)
        assert consent.pending(session, ana) == []
    assert "Lisbon" in block and "she/her" not in block  # only the accepted change is applied
    assert accepted[-1].actor is HistoryActor.CLI
    assert accepted[-1].old_force is NormativeForce.HELD
    assert accepted[-1].new_force is NormativeForce.COMMITTED


runner = CliRunner()


def test_consent_cli_lists_accepts_and_the_worker_expires(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    assert runner.invoke(app, ["person", "add", "ana"]).exit_code == 0
    store = open_store(url)
    try:
        _held(store, "ana", "You live in Porto", days_old=1)
        _held(store, "ana", "Your first language is Welsh", days_old=10)
    finally:
        store.dispose()

    listed = runner.invoke(app, ["consent", "list", "--person", "ana"])
    assert listed.exit_code == 0, listed.output
    assert "#1 (city) You live in Porto" in listed.output
    assert "#2 (language)" in listed.output
    worked = runner.invoke(app, ["worker", "run-once"])
    assert "1 sensitive proposal(s) expired" in worked.output, worked.output
    accepted = runner.invoke(app, ["consent", "accept", "1", "--person", "ana"])
    assert accepted.exit_code == 0 and "Accepted (committed) #1" in accepted.output
    late = runner.invoke(app, ["consent", "accept", "2", "--person", "ana"])
    assert late.exit_code != 0 and "not a sensitive proposal" in late.output
    assert (
        "No sensitive change" in runner.invoke(app, ["consent", "list", "--person", "ana"]).output
    )
