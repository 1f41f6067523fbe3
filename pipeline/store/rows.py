"""Assertions from plain rows, shared by the store and its SQLAlchemy-free SQLite read path
(pipeline/store/quick_read.py), so the two cannot drift. No SQLAlchemy here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from pipeline.clock import as_utc
from pipeline.domain import ActorKind, Assertion, NormativeForce, ProfileField

# The columns every assertion row is read with, in this order.
ASSERTION_COLUMNS = (
    "id",
    "engagement_id",
    "display_number",
    "content",
    "actor",
    "force",
    "retraction_rationale",
    "created_at",
    "updated_at",
    "last_accessed_at",
    "importance",
    "pinned",
    "deleted_at",
    "category",
    "profile_field",
)
_ACTORS = {a.value: a for a in ActorKind}
_FORCES = {f.value: f for f in NormativeForce}
_FIELDS: dict[str | None, ProfileField | None] = {f.value: f for f in ProfileField}
_FIELDS[None] = None


def assertion_from_row(row: Sequence[Any], moment: Callable[[Any], datetime] = as_utc) -> Assertion:
    """An assertion from a row of ASSERTION_COLUMNS, read by position (lists of hundreds of
    rows run on every recall and forget turn; attribute access and enum calls per field cost
    more than the query). `moment` reads a stored time: a datetime from SQLAlchemy, ISO text
    from the stdlib driver."""
    (
        ident,
        engagement_id,
        number,
        content,
        actor,
        force,
        rationale,
        created,
        updated,
        accessed,
        importance,
        pinned,
        deleted,
        category,
        profile_field,
    ) = row
    return Assertion(
        id=ident,
        engagement_id=engagement_id,
        display_number=number,
        content=content,
        actor=_ACTORS[actor],
        force=_FORCES[force],
        retraction_rationale=rationale,
        created_at=moment(created),
        updated_at=moment(updated),
        last_accessed_at=moment(accessed) if accessed is not None else None,
        importance=importance,
        pinned=bool(pinned),
        deleted_at=moment(deleted) if deleted is not None else None,
        category=category,
        profile_field=_FIELDS[profile_field],
    )
