"""Assertions: create, change force, amend, erase, and the queries the handlers need."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, and_, bindparam, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import as_utc, utcnow
from pipeline.domain import ActorKind, Assertion, NormativeForce
from pipeline.errors import NotFound
from pipeline.store.erasure import erase_assertions
from pipeline.store.tables import AssertionRow, EngagementRow

_COLUMNS = (
    AssertionRow.id,
    AssertionRow.engagement_id,
    AssertionRow.display_number,
    AssertionRow.content,
    AssertionRow.actor,
    AssertionRow.force,
    AssertionRow.retraction_rationale,
    AssertionRow.created_at,
    AssertionRow.updated_at,
)


def _assertion(row: AssertionRow | Row[*tuple[Any, ...]]) -> Assertion:
    return Assertion(
        id=row.id,
        engagement_id=row.engagement_id,
        display_number=row.display_number,
        content=row.content,
        actor=ActorKind(row.actor),
        force=NormativeForce(row.force),
        retraction_rationale=row.retraction_rationale,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
    )


def add_assertion(
    session: Session,
    engagement_id: int,
    content: str,
    actor: ActorKind,
    force: NormativeForce = NormativeForce.HELD,
    created_at: datetime | None = None,
) -> Assertion:
    """Add an assertion with the engagement's next display number (never an erased one's)."""
    # The UPDATE takes the engagement row's lock on PostgreSQL, so concurrent adds queue.
    number = session.execute(
        update(EngagementRow)
        .where(EngagementRow.id == engagement_id)
        .values(last_display_number=EngagementRow.last_display_number + 1)
        .returning(EngagementRow.last_display_number)
    ).scalar_one()
    moment = created_at or utcnow()
    row = AssertionRow(
        engagement_id=engagement_id,
        display_number=number,
        content=content,
        actor=actor.value,
        force=force.value,
        created_at=moment,
        updated_at=moment,
    )
    session.add(row)
    session.flush()
    return _assertion(row)


def _row(session: Session, assertion_id: int) -> AssertionRow:
    row = session.get(AssertionRow, assertion_id)
    if row is None:
        raise NotFound(f"no assertion with id {assertion_id}", "it may have been erased")
    return row


def get_assertion(session: Session, assertion_id: int) -> Assertion:
    """The assertion with this id."""
    return _assertion(_row(session, assertion_id))


def get_by_number(session: Session, engagement_id: int, display_number: int) -> Assertion:
    """The assertion shown as #display_number in the engagement."""
    row = session.scalar(
        select(AssertionRow).where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.display_number == display_number,
        )
    )
    if row is None:
        raise NotFound(f"there is no #{display_number}", "list the memory to see the numbers")
    return _assertion(row)


def set_force(
    session: Session, assertion_id: int, force: NormativeForce, rationale: str | None = None
) -> Assertion:
    """Commit, retract (with a rationale) or restore an assertion."""
    row = _row(session, assertion_id)
    row.force = force.value
    row.retraction_rationale = rationale if force is NormativeForce.RETRACTED else None
    row.updated_at = utcnow()
    session.flush()
    return _assertion(row)


def amend_content(session: Session, assertion_id: int, content: str) -> Assertion:
    """Replace an assertion's content, keeping its force."""
    row = _row(session, assertion_id)
    row.content = content
    row.updated_at = utcnow()
    session.flush()
    return _assertion(row)


def erase(session: Session, assertion_ids: Iterable[int]) -> int:
    """Erase assertions permanently (see pipeline.store.erasure); returns how many."""
    return erase_assertions(session, assertion_ids).assertions


def ids_by_number(session: Session, numbers: Iterable[tuple[int, int]]) -> set[int]:
    """Ids of the assertions with these (engagement id, display number) pairs."""
    wanted = sorted(set(numbers))
    if not wanted:
        return set()
    found = session.scalars(
        select(AssertionRow.id).where(
            or_(
                *(
                    and_(AssertionRow.engagement_id == e, AssertionRow.display_number == n)
                    for e, n in wanted
                )
            )
        )
    )
    return set(found)


def find_live(session: Session, engagement_id: int, content: str) -> Assertion | None:
    """A held or committed assertion of the engagement with this content (case ignored)."""
    row = session.scalar(
        select(AssertionRow)
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force.in_([NormativeForce.HELD.value, NormativeForce.COMMITTED.value]),
            func.lower(AssertionRow.content) == " ".join(content.split()).lower(),
        )
        .order_by(AssertionRow.id)
        .limit(1)
    )
    return _assertion(row) if row is not None else None


def list_assertions(
    session: Session | Connection,
    engagement_id: int,
    forces: Sequence[NormativeForce] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[Assertion]:
    """Assertions of an engagement, newest first, optionally only some forces."""
    query = select(*_COLUMNS).where(AssertionRow.engagement_id == engagement_id)
    if forces is not None:
        query = query.where(AssertionRow.force.in_([f.value for f in forces]))
    query = query.order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc()).offset(offset)
    if limit is not None:
        query = query.limit(limit)
    return [_assertion(r) for r in session.execute(query)]


# Built once: constructing and cache-keying a select costs more than running it on SQLite.
_COMMITTED_PAGE = (
    select(AssertionRow.content, AssertionRow.created_at)
    .where(
        AssertionRow.engagement_id == bindparam("engagement_id"),
        AssertionRow.force == NormativeForce.COMMITTED.value,
    )
    .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
    .limit(bindparam("limit", literal_execute=False))
    .offset(bindparam("offset", literal_execute=False))
)


_COMMITTED_NEWEST = (
    select(*_COLUMNS)
    .where(
        AssertionRow.engagement_id == bindparam("engagement_id"),
        AssertionRow.force == NormativeForce.COMMITTED.value,
    )
    .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
    .limit(bindparam("limit", literal_execute=False))
)


def committed_newest(
    session: Session | Connection, engagement_id: int, limit: int
) -> list[Assertion]:
    """The newest committed assertions of an engagement."""
    rows = session.execute(_COMMITTED_NEWEST, {"engagement_id": engagement_id, "limit": limit})
    return [_assertion(r) for r in rows]


def committed_page(
    session: Session | Connection, engagement_id: int, limit: int, offset: int
) -> list[tuple[str, datetime]]:
    """(content, created_at) of committed assertions, newest first: the memory block's query."""
    rows = session.execute(
        _COMMITTED_PAGE, {"engagement_id": engagement_id, "limit": limit, "offset": offset}
    )
    return [(content, as_utc(created)) for content, created in rows]


def latest_held_by_companion(session: Session, engagement_id: int) -> Assertion | None:
    """The most recent held assertion the companion offered in this engagement."""
    row = session.scalar(
        select(AssertionRow)
        .where(
            AssertionRow.engagement_id == engagement_id,
            AssertionRow.force == NormativeForce.HELD.value,
            AssertionRow.actor == ActorKind.COMPANION.value,
        )
        .order_by(AssertionRow.created_at.desc(), AssertionRow.id.desc())
        .limit(1)
    )
    return _assertion(row) if row is not None else None


def count_by_force(session: Session, engagement_id: int) -> dict[NormativeForce, int]:
    """How many assertions of each force the engagement has."""
    rows = session.execute(
        select(AssertionRow.force, func.count())
        .where(AssertionRow.engagement_id == engagement_id)
        .group_by(AssertionRow.force)
    )
    counts = dict.fromkeys(NormativeForce, 0)
    for force, n in rows:
        counts[NormativeForce(force)] = int(n)
    return counts
