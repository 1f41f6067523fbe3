"""Which conversation memories a classification was shown (the spec's
classification_memory_references): written with the turn, read by `converse explain`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.store.conversation_rows import ClassificationMemoryRow


def add_references(
    session: Session, turn_id: int, shown: Sequence[tuple[int, float, str]], now: datetime
) -> None:
    """One row per (memory id, score, reason) the turn's classifier was shown."""
    session.add_all(
        ClassificationMemoryRow(
            turn_id=turn_id, memory_id=memory_id, score=score, reason=reason, created_at=now
        )
        for memory_id, score, reason in shown
    )


def references(session: Session, turn_id: int) -> list[tuple[int, float, str]]:
    """(memory id, score, reason) of a turn's classification, in the order shown."""
    rows = session.execute(
        select(
            ClassificationMemoryRow.memory_id,
            ClassificationMemoryRow.score,
            ClassificationMemoryRow.reason,
        )
        .where(ClassificationMemoryRow.turn_id == turn_id)
        .order_by(ClassificationMemoryRow.id)
    )
    return [(r.memory_id, r.score, r.reason) for r in rows]
