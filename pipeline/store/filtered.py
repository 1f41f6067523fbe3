"""The store's side of memory.query: a person's memories under the request's filters, with
the reader's category allowlist checked before any row is read.

The allowlist is enforced here, in the query itself, not by whoever shows the results: a
request naming a category outside the reader's allowlist raises NotAllowed and reads nothing.
Every filter is a WHERE clause, so what the reader may not see never leaves the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from pipeline.categories import load_categories
from pipeline.domain import Assertion, NormativeForce
from pipeline.store.rows import ASSERTION_COLUMNS, assertion_from_row
from pipeline.store.tables import AssertionRow, EngagementRow

_COLUMNS = tuple(getattr(AssertionRow, name) for name in ASSERTION_COLUMNS)
_LIVE = (NormativeForce.HELD.value, NormativeForce.COMMITTED.value)


@dataclass(frozen=True)
class Filters:
    """What memory.query narrows by; None means no bound. `categories` None means every
    category the reader may read in conversation (see CategoryConfig.allowed)."""

    person_id: int
    reader: str
    categories: Sequence[str] | None = None
    pinned: bool | None = None
    importance_min: float | None = None
    importance_max: float | None = None
    updated_after: datetime | None = None
    updated_before: datetime | None = None
    ids: Sequence[int] | None = None  # only these memories (related ones, checked like any)


@dataclass(frozen=True)
class Found:
    """A memory and where it lives: "personal", or the project's name."""

    assertion: Assertion
    where: str


def allowed_categories(reader: str, categories: Sequence[str] | None) -> tuple[str, ...]:
    """The categories this request reads; NotAllowed when one is outside the allowlist."""
    return load_categories().allowed(reader, categories)


def filtered_memories(
    session: Session, filters: Filters, limit: int | None = None, offset: int = 0
) -> list[Found]:
    """The person's live memories that pass every filter, most recently updated first (a
    page of them with `limit` and `offset`): committed personal facts (held ones are offers
    not yet confirmed) and the live notes of the person's projects; never a soft-deleted or
    retracted one, never another person's."""
    categories = allowed_categories(filters.reader, filters.categories)
    if not categories:
        return []
    personal = and_(
        EngagementRow.visibility == "personal",
        AssertionRow.force == NormativeForce.COMMITTED.value,
    )
    project = and_(EngagementRow.visibility == "project", AssertionRow.force.in_(_LIVE))
    conditions: list[Any] = [
        EngagementRow.owner_person_id == filters.person_id,
        AssertionRow.deleted_at.is_(None),
        AssertionRow.category.in_(categories),
        or_(personal, project),
    ]
    if filters.ids is not None:
        conditions.append(AssertionRow.id.in_(sorted(filters.ids)))
    if filters.pinned is not None:
        conditions.append(AssertionRow.pinned.is_(filters.pinned))
    if filters.importance_min is not None:
        conditions.append(AssertionRow.importance >= filters.importance_min)
    if filters.importance_max is not None:
        conditions.append(AssertionRow.importance <= filters.importance_max)
    if filters.updated_after is not None:
        conditions.append(AssertionRow.updated_at > filters.updated_after)
    if filters.updated_before is not None:
        conditions.append(AssertionRow.updated_at < filters.updated_before)
    query = (
        select(*_COLUMNS, EngagementRow.visibility, EngagementRow.name)
        .join(EngagementRow, EngagementRow.id == AssertionRow.engagement_id)
        .where(*conditions)
        .order_by(AssertionRow.updated_at.desc(), AssertionRow.id.desc())
    )
    if limit is not None:
        query = query.limit(limit).offset(offset)
    found = []
    width = len(ASSERTION_COLUMNS)
    for row in session.execute(query):
        visibility, name = row[width], row[width + 1]
        where = "personal" if visibility == "personal" else str(name)
        found.append(Found(assertion_from_row(row[:width]), where))
    return found
