"""The store's side of memory.query: a person's memories under the request's filters, with
the reader's category allowlist checked before any row is read.

The allowlist is enforced here, in the query itself, not by whoever shows the results: a
request naming a category outside the reader's allowlist raises NotAllowed and reads nothing.
Every filter is a WHERE clause, so what the reader may not see never leaves the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, or_, select
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


@dataclass(frozen=True)
class Found:
    """A memory and where it lives: "personal", or the project's name."""

    assertion: Assertion
    where: str


def allowed_categories(reader: str, categories: Sequence[str] | None) -> tuple[str, ...]:
    """The categories this request reads; NotAllowed when one is outside the allowlist."""
    return load_categories().allowed(reader, categories)


# The statements of each shape of request (which bounds it sets), built once: building one
# costs more than running it on a person's few thousand memories.
_Shape = tuple[bool, bool, bool, bool, bool]
_STATEMENTS: dict[_Shape, tuple[Select[Any], Select[Any]]] = {}


def _shape(filters: Filters) -> _Shape:
    return (
        filters.pinned is not None,
        filters.importance_min is not None,
        filters.importance_max is not None,
        filters.updated_after is not None,
        filters.updated_before is not None,
    )


def _statements(shape: _Shape) -> tuple[Select[Any], Select[Any]]:
    """(memories in order, some of them by id) for requests of a shape."""
    found = _STATEMENTS.get(shape)
    if found is not None:
        return found
    personal = and_(
        EngagementRow.visibility == "personal",
        AssertionRow.force == NormativeForce.COMMITTED.value,
    )
    project = and_(EngagementRow.visibility == "project", AssertionRow.force.in_(_LIVE))
    conditions: list[Any] = [
        EngagementRow.owner_person_id == bindparam("person_id"),
        AssertionRow.deleted_at.is_(None),
        AssertionRow.category.in_(bindparam("categories", expanding=True)),
        or_(personal, project),
    ]
    pinned, low, high, after, before = shape
    if pinned:
        conditions.append(AssertionRow.pinned == bindparam("pinned"))
    if low:
        conditions.append(AssertionRow.importance >= bindparam("importance_min"))
    if high:
        conditions.append(AssertionRow.importance <= bindparam("importance_max"))
    if after:
        conditions.append(AssertionRow.updated_at > bindparam("updated_after"))
    if before:
        conditions.append(AssertionRow.updated_at < bindparam("updated_before"))
    join = (EngagementRow, EngagementRow.id == AssertionRow.engagement_id)
    order = (AssertionRow.updated_at.desc(), AssertionRow.id.desc())
    rows = select(*_COLUMNS, EngagementRow.visibility, EngagementRow.name).join(*join)
    built = (
        rows.where(*conditions).order_by(*order),
        rows.where(*conditions, AssertionRow.id.in_(bindparam("ids", expanding=True))),
    )
    _STATEMENTS[shape] = built
    return built


def _params(filters: Filters) -> dict[str, Any] | None:
    """The request's values (NotAllowed before any row is read); None when it reads no
    category."""
    categories = allowed_categories(filters.reader, filters.categories)
    if not categories:
        return None
    values: dict[str, Any] = {"person_id": filters.person_id, "categories": list(categories)}
    for name in ("pinned", "importance_min", "importance_max", "updated_after", "updated_before"):
        value = getattr(filters, name)
        if value is not None:
            values[name] = value
    return values


def filtered_memories(
    session: Session, filters: Filters, limit: int | None = None, offset: int = 0
) -> list[Found]:
    """The person's live memories that pass every filter, most recently updated first (a
    page of them with `limit` and `offset`): committed personal facts (held ones are offers
    not yet confirmed) and the live notes of the person's projects; never a soft-deleted or
    retracted one, never another person's."""
    params = _params(filters)
    if params is None:
        return []
    query = _statements(_shape(filters))[0]
    if limit is not None:
        query = query.limit(limit).offset(offset)
    return _found(session.connection().execute(query, params))


def found_by_ids(session: Session, filters: Filters, ids: Sequence[int]) -> list[Found]:
    """These memories, in this order, each still passing every filter (one that no longer
    does is left out)."""
    params = _params(filters)
    if params is None or not ids:
        return []
    query = _statements(_shape(filters))[1]
    rows = session.connection().execute(query, {**params, "ids": list(ids)})
    by_id = {f.assertion.id: f for f in _found(rows)}
    return [by_id[i] for i in ids if i in by_id]


def _found(rows: Iterable[Any]) -> list[Found]:
    found = []
    width = len(ASSERTION_COLUMNS)
    for row in rows:
        visibility, name = row[width], row[width + 1]
        where = "personal" if visibility == "personal" else str(name)
        found.append(Found(assertion_from_row(row[:width]), where))
    return found
