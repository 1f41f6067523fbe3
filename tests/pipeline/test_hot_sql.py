"""Hot statements run on the driver's cursor answer exactly as SQLAlchemy's execution does, in
the caller's transaction, with a Session's pending changes flushed first and driver errors
raised as SQLAlchemy's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from pipeline.errors import StoreUnavailable
from pipeline.store import Store
from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import CheckpointRow, StatusNoteRow, TurnRow
from pipeline.store.turns import STORED_FIELDS

MOMENT = datetime(2026, 3, 4, 5, 6, 7, 890_000, tzinfo=UTC)

_TURN = insert(TurnRow).returning(TurnRow.id, TurnRow.created_at, TurnRow.meta)
_TURN_KEYS = STORED_FIELDS
# literal values in the WHERE, a JSON column, a time and a comparison read as a boolean
_READ = (
    select(
        TurnRow.id,
        TurnRow.content,
        TurnRow.operation_data,
        TurnRow.created_at,
        (TurnRow.created_at >= bindparam("after")).label("recent"),
    )
    .where(TurnRow.person_id == bindparam("person_id"), TurnRow.role == "companion")
    .order_by(TurnRow.id)
)


def _turn(person_id: int, content: str, role: str = "companion") -> dict[str, object]:
    return {
        "person_id": person_id,
        "engagement_id": None,
        "role": role,
        "content": content,
        "classified_intent": None,
        "operation_data": {"action": "held", "facts": ["a", "b"], "n": 1.5},
        "prompt_refs": [],
        "channel": "cli",
        "meta": {"elapsed_ms": 1.25},
        "created_at": MOMENT,
    }


def test_rows_match_sqlalchemys_execution(store: Store, make_person) -> None:
    person, _ = make_person(store)
    insert_turn = HotStatement(_TURN, column_keys=_TURN_KEYS)
    with store.write() as session:
        made = insert_turn.rows(session, _turn(person.id, "first"))
        insert_turn.rows(session, _turn(person.id, "not mine", role="operator"))
        insert_turn.rows(session, _turn(person.id, "second"))
    assert made[0].created_at.replace(tzinfo=UTC) == MOMENT
    assert made[0].meta == {"elapsed_ms": 1.25}

    params = {"person_id": person.id, "after": MOMENT}
    with store.reading() as conn:
        hot = HotStatement(_READ).rows(conn, params)
        expected = conn.execute(_READ, params).all()
    assert [tuple(r) for r in hot] == [tuple(r) for r in expected]
    assert [r.content for r in hot] == ["first", "second"]
    assert hot[0].operation_data == {"action": "held", "facts": ["a", "b"], "n": 1.5}
    assert all(r.recent is True or r.recent == 1 for r in hot)


def test_a_sessions_pending_rows_are_flushed_first(store: Store, make_person) -> None:
    person, _ = make_person(store)
    notes = HotStatement(
        select(StatusNoteRow.text).where(StatusNoteRow.person_id == bindparam("person_id"))
    )
    with store.write() as session:
        session.add(
            StatusNoteRow(
                person_id=person.id,
                topic="boiler",
                text="The boiler is fixed",
                created_at=MOMENT,
                written_by="test",
            )
        )
        assert [r.text for r in notes.rows(session, {"person_id": person.id})] == [
            "The boiler is fixed"
        ]


def test_a_statement_runs_in_the_callers_transaction(store: Store, make_person) -> None:
    person, _ = make_person(store)
    insert_turn = HotStatement(_TURN, column_keys=_TURN_KEYS)
    with pytest.raises(RuntimeError), store.write() as session:
        insert_turn.rows(session, _turn(person.id, "rolled back"))
        raise RuntimeError("the turn failed")
    with store.reading() as conn:
        assert HotStatement(_READ).rows(conn, {"person_id": person.id, "after": MOMENT}) == []


def test_a_driver_error_is_raised_as_sqlalchemys(store: Store, make_person) -> None:
    person, _ = make_person(store)
    upsert = HotStatement(
        insert(CheckpointRow),
        column_keys=("person_id", "conversation", "state", "created_at", "updated_at"),
    )
    row = {
        "person_id": person.id,
        "conversation": "general",
        "state": {},
        "created_at": MOMENT,
        "updated_at": MOMENT,
    }
    with store.write() as session:
        upsert.execute(session, [row])
    # the unique (person, conversation) index refuses a second row
    with pytest.raises(IntegrityError), store.write() as session:
        upsert.execute(session, [row])


def test_an_unreachable_table_is_the_stores_one_line_error(sqlite_store: Store) -> None:
    missing = HotStatement(select(TurnRow.id).where(TurnRow.id == bindparam("id")))
    with sqlite_store.write() as session:
        session.connection().exec_driver_sql("ALTER TABLE conversation_turns RENAME TO gone")
    with pytest.raises(StoreUnavailable, match="no such table"), sqlite_store.reading() as conn:
        missing.rows(conn, {"id": 1})


def test_statements_completed_at_execution_are_refused(sqlite_store: Store) -> None:
    expanding = HotStatement(select(TurnRow.id).where(TurnRow.id.in_(bindparam("ids"))))
    with sqlite_store.reading() as conn, pytest.raises(ValueError, match="plain bound"):
        expanding.rows(conn, {"ids": [1, 2]})
