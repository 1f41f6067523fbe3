"""Checkpoints: the pipeline's state of each conversation, one JSON row per person and
conversation, upserted in the transaction that stores a turn, so a process that restarts
reads back exactly the state the last stored turn left (docs/reliability.md, "Checkpoints").

The store keeps the JSON as given; pipeline/checkpoint.py says what it holds.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import CheckpointRow

# a conversation's stored state (a turn reads it within pipeline/store/turn_state.py's)
STATE = select(CheckpointRow.state).where(
    CheckpointRow.person_id == bindparam("person_id"),
    CheckpointRow.conversation == bindparam("conversation"),
)


def load_checkpoint(
    session: Session | Connection, person_id: int, conversation: str
) -> dict[str, Any] | None:
    """The stored state of a conversation, or None before its first stored turn."""
    found = session.execute(STATE, {"person_id": person_id, "conversation": conversation})
    state = found.scalar_one_or_none()
    return dict(state) if state is not None else None


def save_checkpoint(
    session: Session | Connection,
    person_id: int,
    conversation: str,
    state: dict[str, Any],
    at: datetime,
) -> None:
    """Insert or replace a conversation's state in one statement (the caller's transaction)."""
    # A statement built once, on the driver's cursor: every turn runs it.
    conn = session.connection() if isinstance(session, Session) else session
    params = {"person_id": person_id, "conversation": conversation, "state": state, "at": at}
    _upsert(conn.dialect.name).execute(conn, [params])


@lru_cache(maxsize=2)
def _upsert(dialect: str) -> HotStatement:
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(CheckpointRow).values(
        person_id=bindparam("person_id"),
        conversation=bindparam("conversation"),
        state=bindparam("state"),
        created_at=bindparam("at"),
        updated_at=bindparam("at"),
    )
    return HotStatement(
        statement.on_conflict_do_update(
            index_elements=[CheckpointRow.person_id, CheckpointRow.conversation],
            set_={"state": statement.excluded.state, "updated_at": statement.excluded.updated_at},
        )
    )
