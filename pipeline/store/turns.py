"""Conversation turns."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    Text,
    bindparam,
    case,
    insert,
    select,
    type_coerce,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.domain import HistoryTurn, PromptRef, Role, Turn
from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import TurnRow

_COLUMNS = (
    TurnRow.id,
    TurnRow.person_id,
    TurnRow.engagement_id,
    TurnRow.role,
    TurnRow.content,
    TurnRow.classified_intent,
    TurnRow.operation_data,
    TurnRow.prompt_refs,
    TurnRow.channel,
    TurnRow.created_at,
    TurnRow.meta,
)


def _turn(row: Row[*tuple[Any, ...]]) -> Turn:
    return Turn(
        id=row.id,
        person_id=row.person_id,
        engagement_id=row.engagement_id,
        role=Role(row.role),
        content=row.content,
        intent=row.classified_intent,
        operation_data=row.operation_data or {},
        prompt_refs=tuple(PromptRef(**ref) for ref in row.prompt_refs or []),
        channel=row.channel,
        created_at=as_utc(row.created_at),
        meta=row.meta or {},
    )


# The columns a stored turn gives (its id is the database's).
STORED_FIELDS = (
    "person_id",
    "engagement_id",
    "role",
    "content",
    "classified_intent",
    "operation_data",
    "prompt_refs",
    "channel",
    "meta",
    "created_at",
)
_INSERT = HotStatement(insert(TurnRow).returning(TurnRow.id), column_keys=STORED_FIELDS)


@dataclass(frozen=True)
class NewTurn:
    """A turn to store (at `created_at`, else now)."""

    person_id: int
    engagement_id: int | None
    role: Role
    content: str
    intent: str | None
    operation_data: dict[str, Any] | None = None
    prompt_refs: Sequence[PromptRef] = ()
    channel: str = "cli"
    meta: dict[str, Any] | None = None
    created_at: datetime | None = None


def add_turn(
    session: Session | Connection,
    *,
    person_id: int,
    engagement_id: int | None,
    role: Role,
    content: str,
    intent: str | None,
    operation_data: dict[str, Any] | None = None,
    prompt_refs: Sequence[PromptRef] = (),
    channel: str = "cli",
    meta: dict[str, Any] | None = None,
    created_at: datetime | None = None,
) -> Turn:
    """Persist one turn (at `created_at`, else now)."""
    new = NewTurn(
        person_id,
        engagement_id,
        role,
        content,
        intent,
        operation_data,
        prompt_refs,
        channel,
        meta,
        created_at,
    )
    return add_turns(session, [new])[0]


@lru_cache(maxsize=1024)
def _stored_ref(ref: PromptRef) -> dict[str, str]:
    # a turn records about eight references, the same turn after turn: dumped once each
    return ref.model_dump()


def add_turns(session: Session | Connection, turns: Sequence[NewTurn]) -> list[Turn]:
    """Persist turns in order, in the caller's transaction (ids rise in the order given)."""
    values: list[dict[str, Any]] = [
        {
            "person_id": t.person_id,
            "engagement_id": t.engagement_id,
            "role": t.role.value,
            "content": t.content,
            "classified_intent": t.intent,
            "operation_data": t.operation_data or {},
            "prompt_refs": [_stored_ref(ref) for ref in t.prompt_refs],
            "channel": t.channel,
            "meta": t.meta or {},
            "created_at": t.created_at or utcnow(),
        }
        for t in turns
    ]
    # A prebuilt insert on the driver's cursor: the ORM unit of work, or Core's execution,
    # costs more than the insert itself.
    ids = [_INSERT.tuples(session, v)[0][0] for v in values]
    return [
        Turn.model_construct(
            id=int(turn_id),
            person_id=t.person_id,
            engagement_id=t.engagement_id,
            role=t.role,
            content=t.content,
            intent=t.intent,
            operation_data=v["operation_data"],
            prompt_refs=tuple(t.prompt_refs),
            channel=t.channel,
            created_at=v["created_at"],
            meta=v["meta"],
        )
        for turn_id, t, v in zip(ids, turns, values, strict=True)
    ]


def recent_turns(
    session: Session, person_id: int, engagement_id: int | None, limit: int
) -> list[Turn]:
    """The person's last `limit` turns in this engagement (or outside any), oldest first."""
    where = (
        TurnRow.engagement_id.is_(None)
        if engagement_id is None
        else (TurnRow.engagement_id == engagement_id)
    )
    rows = session.execute(
        select(*_COLUMNS)
        .where(TurnRow.person_id == person_id, where)
        .order_by(TurnRow.id.desc())
        .limit(limit)
    )
    return [_turn(r) for r in reversed(list(rows))]


def _history(where: ColumnElement[bool]) -> Select[*tuple[Any, ...]]:
    # Only a companion turn's operation data is read from history (what it offered, held or
    # asked); decoding every operator turn's JSON too was most of this query's cost.
    # Read as text on SQLite and decoded here (a JSON type would pass every row through a
    # processor); PostgreSQL's driver hands JSON back decoded.
    companion_data = type_coerce(
        case((TurnRow.role == Role.COMPANION.value, TurnRow.operation_data), else_=None), Text
    )
    return (
        select(TurnRow.role, TurnRow.content, TurnRow.classified_intent, companion_data)
        .where(
            TurnRow.person_id == bindparam("person_id"),
            where,
            TurnRow.id > bindparam("after_id"),
        )
        .order_by(TurnRow.id.desc())
        .limit(bindparam("limit", literal_execute=False))
    )


# Built once: constructing and cache-keying a select costs more than running it on SQLite.
_HISTORY_OUTSIDE = HotStatement(_history(TurnRow.engagement_id.is_(None)))
_HISTORY_IN = HotStatement(_history(TurnRow.engagement_id == bindparam("engagement_id")))


def recent_history(
    session: Session | Connection,
    person_id: int,
    engagement_id: int | None,
    limit: int,
    after_id: int = 0,
) -> list[HistoryTurn]:
    """Like recent_turns, but only what providers see: the hot path of every turn. Only turns
    after `after_id` (the last turn a compaction folded into its summary). An operator turn
    comes without its operation data (its classified parameters): nothing downstream reads it."""
    params = {"person_id": person_id, "limit": limit, "after_id": after_id}
    if engagement_id is None:
        rows = _HISTORY_OUTSIDE.tuples(session, params)
    else:
        rows = _HISTORY_IN.tuples(session, {**params, "engagement_id": engagement_id})
    # Roles are looked up in a dict: calling the enum costs as much as building the turn.
    return [
        HistoryTurn(
            role=_ROLES[role],
            content=content,
            intent=intent,
            operation_data=json.loads(data) if isinstance(data, str) else data or {},
        )
        for role, content, intent, data in reversed(rows)
    ]


_ROLES = {role.value: role for role in Role}


def last_turn_ids(
    session: Session | Connection, person_id: int, engagement_id: int | None, limit: int
) -> list[int]:
    """Ids of the person's last `limit` turns in this engagement (or outside any), newest first."""
    where = (
        TurnRow.engagement_id.is_(None)
        if engagement_id is None
        else (TurnRow.engagement_id == engagement_id)
    )
    found = session.scalars(
        select(TurnRow.id)
        .where(TurnRow.person_id == person_id, where)
        .order_by(TurnRow.id.desc())
        .limit(limit)
    )
    return list(found)


def turns_between(
    session: Session | Connection,
    person_id: int,
    engagement_id: int | None,
    after_id: int,
    upto_id: int,
) -> list[tuple[int, Role, str]]:
    """(id, role, content) of the turns with after_id < id <= upto_id, oldest first."""
    where = (
        TurnRow.engagement_id.is_(None)
        if engagement_id is None
        else (TurnRow.engagement_id == engagement_id)
    )
    rows = session.execute(
        select(TurnRow.id, TurnRow.role, TurnRow.content)
        .where(TurnRow.person_id == person_id, where, TurnRow.id > after_id, TurnRow.id <= upto_id)
        .order_by(TurnRow.id)
    )
    return [(row.id, Role(row.role), row.content) for row in rows]


def get_turn(session: Session | Connection, person_id: int, turn_id: int) -> Turn | None:
    """The person's turn with this id (None for another person's or a missing one)."""
    row = session.execute(
        select(*_COLUMNS).where(TurnRow.id == turn_id, TurnRow.person_id == person_id)
    ).first()
    return _turn(row) if row is not None else None


def operator_turns_since(
    session: Session, person_id: int, since: datetime | None, limit: int
) -> list[tuple[datetime, str]]:
    """(time, text) of the person's newest `limit` messages after `since`, in any engagement,
    oldest first (what the theory-of-mind job reads)."""
    query = select(TurnRow.created_at, TurnRow.content).where(
        TurnRow.person_id == person_id, TurnRow.role == Role.OPERATOR.value
    )
    if since is not None:
        query = query.where(TurnRow.created_at > since)
    rows = session.execute(query.order_by(TurnRow.id.desc()).limit(limit)).all()
    return [(created, content) for created, content in reversed(rows)]
