"""Status notes of a person: one current note a topic, the replaced ones kept as history.

The rules (how a topic is spelled, how many notes and how long) are pipeline/memory/status.py's;
these functions store what they are given.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.store.hot_sql import HotStatement
from pipeline.store.tables import StatusNoteRow


@dataclass(frozen=True)
class StatusNote:
    """One note: its topic, what was reported, when, and whether a later one replaced it."""

    id: int
    topic: str
    text: str
    created_at: datetime
    replaced_at: datetime | None = None
    source_turn_id: int | None = None
    written_by: str = ""


_COLUMNS = (
    StatusNoteRow.id,
    StatusNoteRow.topic,
    StatusNoteRow.text,
    StatusNoteRow.created_at,
    StatusNoteRow.replaced_at,
    StatusNoteRow.source_turn_id,
    StatusNoteRow.written_by,
)


def _note(row: Any) -> StatusNote:
    return StatusNote(
        id=row.id,
        topic=row.topic,
        text=row.text,
        created_at=as_utc(row.created_at),
        replaced_at=as_utc(row.replaced_at) if row.replaced_at is not None else None,
        source_turn_id=row.source_turn_id,
        written_by=row.written_by,
    )


# Built once: every turn reads the current notes, and building the select cost more than
# running it.
_CURRENT = HotStatement(
    select(*_COLUMNS)
    .where(StatusNoteRow.person_id == bindparam("person_id"), StatusNoteRow.replaced_at.is_(None))
    .order_by(StatusNoteRow.id.desc())
)


def current_notes(session: Session | Connection, person_id: int) -> list[StatusNote]:
    """The person's current notes, newest first."""
    return [_note(r) for r in _CURRENT.rows(session, {"person_id": person_id})]


def note_history(
    session: Session | Connection, person_id: int, topic: str | None = None
) -> list[StatusNote]:
    """Every note of the person (or of one topic), replaced ones included, newest first."""
    query = select(*_COLUMNS).where(StatusNoteRow.person_id == person_id)
    if topic is not None:
        query = query.where(StatusNoteRow.topic == topic)
    return [_note(r) for r in session.execute(query.order_by(StatusNoteRow.id.desc()))]


def put_note(
    session: Session,
    person_id: int,
    topic: str,
    text: str,
    *,
    at: datetime,
    written_by: str,
    source_turn_id: int | None = None,
    keep_current: int,
    keep_replaced: int,
) -> StatusNote:
    """Store a note as the topic's current one; the earlier note of the topic is replaced.

    Beyond `keep_current` current notes the oldest are replaced too (out of view, still in the
    history); beyond `keep_replaced` replaced notes the oldest are deleted."""
    session.execute(
        update(StatusNoteRow)
        .where(
            StatusNoteRow.person_id == person_id,
            StatusNoteRow.topic == topic,
            StatusNoteRow.replaced_at.is_(None),
        )
        .values(replaced_at=at)
    )
    row = StatusNoteRow(
        person_id=person_id,
        topic=topic,
        text=text,
        source_turn_id=source_turn_id,
        written_by=written_by,
        created_at=at,
        replaced_at=None,
    )
    session.add(row)
    session.flush()
    _bound(session, person_id, at, keep_current, keep_replaced)
    return _note(row)


def _bound(
    session: Session, person_id: int, at: datetime, keep_current: int, keep_replaced: int
) -> None:
    mine = StatusNoteRow.person_id == person_id
    current = StatusNoteRow.replaced_at.is_(None)
    surplus = select(StatusNoteRow.id).where(mine, current).order_by(StatusNoteRow.id.desc())
    old = list(session.scalars(surplus.offset(keep_current)))
    if old:
        session.execute(
            update(StatusNoteRow).where(StatusNoteRow.id.in_(old)).values(replaced_at=at)
        )
    replaced = select(StatusNoteRow.id).where(mine, ~current).order_by(StatusNoteRow.id.desc())
    gone = list(session.scalars(replaced.offset(keep_replaced)))
    if gone:
        session.execute(delete(StatusNoteRow).where(StatusNoteRow.id.in_(gone)))


def clear_notes(session: Session, person_id: int, topic: str | None = None) -> int:
    """Delete the person's notes (of one topic, or all), their history included; how many."""
    query = delete(StatusNoteRow).where(StatusNoteRow.person_id == person_id)
    if topic is not None:
        query = query.where(StatusNoteRow.topic == topic)
    result = session.execute(query)
    return int(getattr(result, "rowcount", 0) or 0)


def erase_carrying(
    session: Session,
    person_ids: Collection[int],
    turn_ids: Collection[int],
    texts: Collection[str],
) -> int:
    """Delete the notes that carry erased text: written from an erased turn, or holding an
    erased fact's words (compared without case). How many went."""
    doomed: set[int] = set()
    if turn_ids:
        doomed.update(
            session.scalars(
                select(StatusNoteRow.id).where(StatusNoteRow.source_turn_id.in_(list(turn_ids)))
            )
        )
    wanted = [" ".join(t.split()).casefold() for t in texts if t.strip()]
    if person_ids and wanted:
        rows = session.execute(
            select(StatusNoteRow.id, StatusNoteRow.topic, StatusNoteRow.text).where(
                StatusNoteRow.person_id.in_(list(person_ids))
            )
        ).all()
        for note_id, topic, text in rows:
            held = " ".join(f"{topic} {text}".split()).casefold()
            if any(w in held or " ".join(text.split()).casefold() in w for w in wanted):
                doomed.add(note_id)
    if not doomed:
        return 0
    session.execute(delete(StatusNoteRow).where(StatusNoteRow.id.in_(sorted(doomed))))
    return len(doomed)


def count_notes(session: Session, person_id: int) -> int:
    """How many notes the person has, replaced ones included."""
    found = session.scalar(
        select(func.count()).select_from(StatusNoteRow).where(StatusNoteRow.person_id == person_id)
    )
    return int(found or 0)
