"""Conversation turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.domain import PromptRef, Role, Turn
from pipeline.store.tables import TurnRow


def _turn(row: TurnRow) -> Turn:
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


def add_turn(
    session: Session,
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
) -> Turn:
    """Persist one turn."""
    row = TurnRow(
        person_id=person_id,
        engagement_id=engagement_id,
        role=role.value,
        content=content,
        classified_intent=intent,
        operation_data=operation_data or {},
        prompt_refs=[ref.model_dump() for ref in prompt_refs],
        channel=channel,
        meta=meta or {},
        created_at=utcnow(),
    )
    session.add(row)
    session.flush()
    return _turn(row)


def recent_turns(
    session: Session, person_id: int, engagement_id: int | None, limit: int
) -> list[Turn]:
    """The person's last `limit` turns in this engagement (or outside any), oldest first."""
    where = TurnRow.engagement_id.is_(None) if engagement_id is None else (
        TurnRow.engagement_id == engagement_id
    )
    rows = session.scalars(
        select(TurnRow)
        .where(TurnRow.person_id == person_id, where)
        .order_by(TurnRow.id.desc())
        .limit(limit)
    )
    return [_turn(r) for r in reversed(list(rows))]
