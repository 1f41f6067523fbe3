"""Conversations and the turns that belong to them (migration 0011).

Every function takes the person's id beside a conversation id and answers NotFound for a
conversation of someone else: one person's conversations never reach another's commands.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Update, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.conversation_models import Conversation, ConversationStatus
from pipeline.errors import ConversationConflict, NotFound
from pipeline.store.conversation_rows import ConversationMessageRow, ConversationRow
from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import TurnRow


def _when(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None


def _conversation(row: ConversationRow) -> Conversation:
    return Conversation(
        id=row.id,
        person_id=row.person_id,
        status=ConversationStatus(row.status),
        is_paused=bool(row.is_paused),
        paused_at=_when(row.paused_at),
        started_at=as_utc(row.started_at),
        last_message_at=_when(row.last_message_at),
        closed_at=_when(row.closed_at),
        archived_at=_when(row.archived_at),
        message_count=row.message_count,
        compression=row.compression or {},
    )


def open_row(session: Session, person_id: int) -> ConversationRow | None:
    """The person's conversation that is not archived (at most one: the unique index)."""
    return session.execute(
        select(ConversationRow).where(
            ConversationRow.person_id == person_id,
            ConversationRow.status != ConversationStatus.ARCHIVED.value,
        )
    ).scalar_one_or_none()


# Built once: every turn asks (constructing a select costs more than running it on SQLite).
_OPEN_ID = select(ConversationRow.id, ConversationRow.status).where(
    ConversationRow.person_id == bindparam("person_id"),
    ConversationRow.status != ConversationStatus.ARCHIVED.value,
)


def open_id(session: Session, person_id: int) -> tuple[int, ConversationStatus] | None:
    """The id and state of the person's open conversation, read without the ORM (per turn)."""
    row = session.connection().execute(_OPEN_ID, {"person_id": person_id}).one_or_none()
    return (row.id, ConversationStatus(row.status)) if row is not None else None


def open_conversation(session: Session, person_id: int) -> Conversation | None:
    """The person's open conversation (active, ready to close or compressing), or None."""
    row = open_row(session, person_id)
    return _conversation(row) if row is not None else None


def start(session: Session, person_id: int, now: datetime) -> Conversation:
    """Start an active conversation; ConversationConflict if the person has one open.

    The partial unique index decides, not a read before the insert: two starts racing from
    two processes cannot both pass it.
    """
    row = ConversationRow(
        person_id=person_id,
        status=ConversationStatus.ACTIVE.value,
        is_paused=False,
        started_at=now,
        message_count=0,
    )
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError as exc:
        raise ConversationConflict(
            "this person already has an open conversation",
            "resume it, or close it with `converse conversation close --person NAME` first",
        ) from exc
    return _conversation(row)


def get_row(session: Session, person_id: int, conversation_id: int) -> ConversationRow:
    """A conversation of this person; NotFound otherwise (whoever else it belongs to)."""
    row = session.get(ConversationRow, conversation_id)
    if row is None or row.person_id != person_id:
        raise NotFound(
            f"no conversation {conversation_id} for this person",
            "list them with `converse conversation list --person NAME`",
        )
    return row


def get(session: Session, person_id: int, conversation_id: int) -> Conversation:
    """A conversation of this person."""
    return _conversation(get_row(session, person_id, conversation_id))


def snapshot(row: ConversationRow) -> Conversation:
    """A row as a value (after a change made through the row)."""
    return _conversation(row)


def list_for(session: Session, person_id: int, limit: int = 50) -> list[Conversation]:
    """The person's conversations, newest first."""
    rows = session.execute(
        select(ConversationRow)
        .where(ConversationRow.person_id == person_id)
        .order_by(ConversationRow.id.desc())
        .limit(limit)
    ).scalars()
    return [_conversation(row) for row in rows]


_LINK = HotStatement(insert(ConversationMessageRow), column_keys=("turn_id", "conversation_id"))


def _counted(where: ColumnElement[bool]) -> Update:
    # the conversation's count raised by `n` turns, heard from at `at`
    return (
        update(ConversationRow)
        .where(where)
        .values(
            message_count=ConversationRow.message_count + bindparam("n"),
            last_message_at=bindparam("at"),
        )
    )


_COUNT = _counted(ConversationRow.id == bindparam("cid"))
_COUNT_ACTIVE = HotStatement(
    _counted(
        (ConversationRow.person_id == bindparam("pid"))
        & (ConversationRow.status == ConversationStatus.ACTIVE.value)
    ).returning(ConversationRow.id)
)


def _link(conn: Session | Connection, conversation_id: int, turn_ids: list[int]) -> None:
    _LINK.execute(conn, [{"turn_id": t, "conversation_id": conversation_id} for t in turn_ids])


def link_to_active(
    conn: Session | Connection, person_id: int, turn_ids: list[int], now: datetime
) -> int | None:
    """Link turns to the person's active conversation, if there is one, and return its id;
    None, with nothing written, when the person has none active. Two statements, for the
    common case of every turn: the count is raised where the conversation is found."""
    params = {"pid": person_id, "n": len(turn_ids), "at": now}
    found = _COUNT_ACTIVE.tuples(conn, params)
    if not found:
        return None
    conversation_id = int(found[0][0])
    _link(conn, conversation_id, turn_ids)
    return conversation_id


def link_turns(
    conn: Session | Connection, conversation_id: int, turn_ids: list[int], now: datetime
) -> None:
    """Record turns as belonging to a conversation and note when it last heard from anyone."""
    if not turn_ids:
        return
    _link(conn, conversation_id, turn_ids)
    connection = conn.connection() if isinstance(conn, Session) else conn
    connection.execute(_COUNT, {"cid": conversation_id, "n": len(turn_ids), "at": now})


def transcript(session: Session, conversation_id: int) -> list[tuple[int, str, str, datetime]]:
    """The conversation's turns, oldest first: (turn id, role, content, created at)."""
    rows = session.execute(
        select(TurnRow.id, TurnRow.role, TurnRow.content, TurnRow.created_at)
        .join(ConversationMessageRow, ConversationMessageRow.turn_id == TurnRow.id)
        .where(ConversationMessageRow.conversation_id == conversation_id)
        .order_by(TurnRow.id)
    ).all()
    return [(r.id, r.role, r.content, as_utc(r.created_at)) for r in rows]


def turn_projects(session: Session, conversation_id: int) -> dict[int | None, int]:
    """How many of the conversation's turns were in each project (None: outside any)."""
    rows = session.execute(
        select(TurnRow.engagement_id, func.count())
        .join(ConversationMessageRow, ConversationMessageRow.turn_id == TurnRow.id)
        .where(ConversationMessageRow.conversation_id == conversation_id)
        .group_by(TurnRow.engagement_id)
    ).all()
    return {r[0]: int(r[1]) for r in rows}


def set_compression(row: ConversationRow, record: dict[str, Any]) -> None:
    """Keep what the compression pipeline did with the conversation."""
    row.compression = record
