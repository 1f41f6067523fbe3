"""Erase removes a fact's text everywhere it was stored; retract keeps it (docs/memory.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, MetaData, create_engine, select

from pipeline.domain import ActorKind, NormativeForce, Role
from pipeline.errors import InvalidMessage, NotFound
from pipeline.memory import load_personal_memory, manage
from pipeline.memory.manage import erase_fact, erase_numbers, personal_assertions
from pipeline.store import Store, open_store, upgrade
from pipeline.store import assertions as repo
from pipeline.store.engine import alembic_config
from pipeline.store.erasure import ERASED_MARKER
from pipeline.store.people import get_person
from pipeline.store.turns import recent_turns
from tests.conftest import script

# Words that appear nowhere else in the schema, prompts or fixtures, so a byte search is exact.
FIRST = "You're allergic to kumquats"
REFINED = "You're allergic to tamarillos"
KEPT = "You live in Reykjavik"
SECRETS = ("kumquat", "tamarillo")

provider = script(
    {
        "message": "I'm allergic to kumquats",
        "intent": "remember_about_me",
        "params": {"personal_fact": FIRST},
        "reply": "I'll remember that you're allergic to kumquats — is that right?",
    },
    {
        "message": "no, tamarillos actually",
        "after": "remember_about_me",
        "intent": "remember_about_me",
        "params": {"personal_fact": REFINED},
        "reading": {"relation": "correct", "corrected": REFINED},
        "reply": "Got it: tamarillos, not kumquats. Is that right?",
    },
    {
        "message": "yes",
        "after": "remember_about_me",
        "intent": "remember_about_me",
    },
    {
        "message": "I live in Reykjavik",
        "intent": "remember_about_me",
        "params": {"personal_fact": KEPT},
    },
    {
        "message": "forget my tamarillo allergy",
        "intent": "forget_about_me",
        "params": {"forget_description": "tamarillo allergy"},
        "reply": "Stop using that you're allergic to tamarillos?",
    },
    {
        "message": "yes",
        "after": "forget_about_me",
        "intent": "forget_about_me",
        "params": {"forget_description": "tamarillo allergy"},
    },
    {
        "message": "never mind",
        "intent": "general_conversation",
        "reading": {"relation": "reject"},
    },
    {
        "message": "What do you remember about me?",
        "intent": "ask_about_past_input",
        "params": {"query": "allergic tamarillos kumquats Reykjavik"},
    },
    {
        "message": "I'm allergic to sesame",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to sesame"},
    },
)


def _talk(store: Store, say, *messages: str, project: str | None = None) -> None:
    for message in messages:
        say(store, provider, message, project=project)


def _tell_and_confirm(store: Store, say) -> None:
    _talk(store, say, "I'm allergic to kumquats", "no, tamarillos actually", "yes")
    _talk(store, say, "I live in Reykjavik", "yes")
    _talk(store, say, "forget my tamarillo allergy")


def _every_row(store: Store) -> str:
    tables = MetaData()
    tables.reflect(store.engine)
    with store.engine.connect() as conn:
        return "\n".join(
            repr(row) for table in tables.tables.values() for row in conn.execute(select(table))
        ).casefold()


def _file_bytes(url: str) -> bytes:
    path = Path(url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists()).lower()


def test_erase_removes_the_text_from_every_table_and_keeps_the_transcript(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _tell_and_confirm(store, say)
    with store.read() as session:
        before = recent_turns(session, get_person(session, "ana").id, None, 100)
    assert all(secret in _every_row(store) for secret in SECRETS)

    done = erase_fact(store, "ana", "tamarillos")

    assert [a.content for a in done.erased] == [REFINED]
    rows = _every_row(store)
    assert not [secret for secret in SECRETS if secret in rows]
    assert KEPT.casefold() in rows
    with store.read() as session:
        person = get_person(session, "ana")
        after = recent_turns(session, person.id, None, 100)
        left = personal_assertions(session, person, include_retracted=True)
    assert [(t.id, t.role) for t in after] == [(t.id, t.role) for t in before]
    blanked = [t for t in after if t.content == ERASED_MARKER]
    # Stated, refined, confirmed and matched for forgetting: four turns, each both sides.
    assert [t.role for t in blanked] == [Role.OPERATOR, Role.COMPANION] * 4
    assert all("erased_at" in t.meta for t in blanked)
    assert [t.content for t in after if t not in blanked] == [
        "I live in Reykjavik",
        "I'll remember that you live in Reykjavik — is that right?",
        "yes",
        "Got it, I'll remember that.",
    ]
    assert [(a.content, a.force) for a in left] == [(KEPT, NormativeForce.COMMITTED)]


def test_after_erase_the_next_turns_history_and_recall_do_not_carry_it(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _tell_and_confirm(store, say)
    erase_fact(store, "ana", "tamarillo")

    asked = say(store, provider, "What do you remember about me?")

    carried = " ".join(t.content for t in asked_history(store)).casefold()
    assert not [secret for secret in SECRETS if secret in carried]
    assert asked.route.operation_data["items"] == [
        {"display_number": 2, "content": KEPT, "force": "committed", "where": "personal"}
    ]
    with store.read() as session:
        block = load_personal_memory(session, get_person(session, "ana").personal_engagement_id)
    assert block.endswith(f"- {KEPT} (noted just now)")


def asked_history(store: Store) -> list:
    with store.read() as session:
        return recent_turns(session, get_person(session, "ana").id, None, 100)


def test_display_numbers_of_erased_facts_are_never_reused(store: Store, make_person, say) -> None:
    make_person(store)
    _talk(store, say, "I live in Reykjavik", "yes", "I'm allergic to kumquats")
    erase_numbers(store, "ana", [2])  # the newest: the largest number stored is now 1

    outcome = say(store, provider, "I'm allergic to sesame")

    assert outcome.route.operation_data["assertion_display_number"] == 3
    with store.read() as session:
        person = get_person(session, "ana")
        with pytest.raises(NotFound):
            manage.numbered(session, person, 2)
        offered = recent_turns(session, person.id, None, 100)[5]
    # The erased offer still names #2, which now points at nothing rather than a new fact,
    # and is no longer an offer a "yes" could confirm.
    assert offered.operation_data == {
        "action": "erased",
        "personal_fact": ERASED_MARKER,
        "assertion_display_number": 2,
    }


def test_sqlite_file_and_wal_hold_no_erased_bytes_with_another_connection_open(
    sqlite_url: str, make_person, say
) -> None:
    store = open_store(sqlite_url)
    other = open_store(sqlite_url)
    try:
        make_person(store)
        _tell_and_confirm(store, say)
        with other.read() as session:  # another process-like reader has seen the rows
            assert len(repo.list_assertions(session, 1)) == 2
        assert b"tamarillo" in _file_bytes(sqlite_url)

        done = erase_fact(store, "ana", "tamarillo")

        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 1
        assert done.checkpointed
        raw = _file_bytes(sqlite_url)
        assert not [s for s in SECRETS if s.encode() in raw]
        assert b"reykjavik" in raw
    finally:
        other.dispose()
        store.dispose()


def test_retract_keeps_the_text_and_erase_of_a_retracted_fact_removes_it(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _tell_and_confirm(store, say)
    with store.write() as session:
        manage.retract(session, get_person(session, "ana"), 1)
    assert "tamarillo" in _every_row(store)

    erase_fact(store, "ana", "TAMARILLOS")

    assert "tamarillo" not in _every_row(store)


def test_erase_fact_needs_exactly_one_match(store: Store, make_person, say) -> None:
    make_person(store)
    _talk(store, say, "I live in Reykjavik", "yes", "I'm allergic to kumquats")
    with pytest.raises(InvalidMessage, match=r"2 personal facts contain 'YOU' \(#1, #2\)"):
        erase_fact(store, "ana", "YOU")
    with pytest.raises(NotFound, match="no personal fact of ana contains 'durian'"):
        erase_fact(store, "ana", "durian")
    assert len(_personal_count(store)) == 2


def _personal_count(store: Store) -> list:
    with store.read() as session:
        return personal_assertions(session, get_person(session, "ana"), include_retracted=True)


cross = script(
    {
        "message": "My oven runs hot, so I bake this lasagna at 200",
        "intent": "add_knowledge",
        "params": {"knowledge": "Bake this lasagna at 200"},
        "reply": "Noted. Your oven running hot matters everywhere — remember it across projects?",
    },
    {
        "message": "yes, please",
        "after": "add_knowledge",
        "intent": "remember_about_me",
        "params": {"personal_fact": "Your oven runs hot"},
    },
)


def test_a_fact_from_a_cross_promotion_offer_blanks_the_turns_that_first_stated_it(
    store: Store, make_person, say
) -> None:
    person, garden = make_person(store)
    say(store, cross, "My oven runs hot, so I bake this lasagna at 200", project="Garden")
    say(store, cross, "yes, please", project="Garden")

    erase_fact(store, "ana", "oven")

    assert "oven" not in _every_row(store)
    with store.read() as session:
        turns = recent_turns(session, person.id, garden.id, 10)
    assert [t.content for t in turns] == [ERASED_MARKER] * 4


def test_an_older_database_keeps_counting_from_its_largest_number(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = _at_revision(url, "0002")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO engagements (id, name, visibility, seed, created_at)"
            " VALUES (1, 'p', 'personal', 's', '2026-01-01')"
        )
        for number in (1, 4):
            conn.exec_driver_sql(
                "INSERT INTO assertions (engagement_id, display_number, content, actor, force,"
                " created_at, updated_at) VALUES (1, ?, 'x', 'operator', 'held',"
                " '2026-01-01', '2026-01-01')",
                (number,),
            )
    engine.dispose()
    upgrade(url)
    store = open_store(url)
    try:
        with store.write() as session:
            added = repo.add_assertion(session, 1, "y", ActorKind.OPERATOR)
        assert added.display_number == 5
    finally:
        store.dispose()


def _at_revision(url: str, revision: str) -> Engine:
    engine = create_engine(url)
    with engine.begin() as conn:
        config = alembic_config(url)
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    return engine


def test_retracted_and_rejected_facts_are_erased_from_the_turns_that_retracted_them(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _tell_and_confirm(store, say)
    _talk(store, say, "yes")  # confirms the retraction: retracted_fact and a rationale
    _talk(store, say, "I'm allergic to kumquats", "never mind")  # held, then rejected
    with store.read() as session:
        facts = personal_assertions(session, get_person(session, "ana"), include_retracted=True)
    assert sorted(a.force for a in facts if a.content != KEPT) == [
        NormativeForce.RETRACTED,
        NormativeForce.RETRACTED,
    ]

    erase_fact(store, "ana", "tamarillo")
    erase_fact(store, "ana", "kumquat")

    rows = _every_row(store)
    assert not [secret for secret in SECRETS if secret in rows]
    assert "retracted_fact" in rows  # the keys stay; their values are the marker


def test_erase_drops_summaries_and_working_memory_that_may_restate_the_fact(
    sqlite_url: str, make_person, say
) -> None:
    from datetime import UTC, datetime, timedelta

    from pipeline.memory.session import write_working_memory
    from pipeline.settings import Settings
    from pipeline.store.compactions import add_compaction, latest_compaction
    from pipeline.store.sessions import open_session, working_document

    store = open_store(sqlite_url)
    try:
        person, _ = make_person(store)
        _tell_and_confirm(store, say)
        now = datetime.now(UTC)
        with store.write() as session:
            # What a summarizer may have written: the fact, paraphrased.
            summary = "Ana mentioned a tamarillo allergy and lives in Reykjavik."
            add_compaction(
                session,
                person_id=person.id,
                engagement_id=None,
                upto_turn_id=2,
                summary=summary,
                method="test",
                now=now,
            )
            write_working_memory(session, person.id, summary, now, Settings())
        say(store, script(), "how are you")  # a session keeps the working memory
        assert b"tamarillo allergy" in _file_bytes(sqlite_url)

        assert erase_fact(store, "ana", "tamarillo").checkpointed
        with store.read() as session:
            assert latest_compaction(session, person.id, None) is None
            assert working_document(session, person.id) is None
            assert open_session(session, person.id, now, timedelta(hours=6)) is None
        assert b"tamarillo" not in _file_bytes(sqlite_url)
    finally:
        store.dispose()
