"""Held personal assertions, across people: the proposals a background job reviews."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.domain import Assertion, NormativeForce, Visibility
from pipeline.store.assertions import get_assertion
from pipeline.store.tables import AssertionRow, EngagementRow


def held_personal(
    session: Session, *, engagement_id: int | None = None, created_before: datetime | None = None
) -> list[Assertion]:
    """Held, not set-aside assertions of personal engagements (one, or every person's),
    oldest first."""
    query = (
        select(AssertionRow.id)
        .join(EngagementRow, EngagementRow.id == AssertionRow.engagement_id)
        .where(
            EngagementRow.visibility == Visibility.PERSONAL.value,
            AssertionRow.force == NormativeForce.HELD.value,
            AssertionRow.deleted_at.is_(None),
        )
        .order_by(AssertionRow.created_at, AssertionRow.id)
    )
    if engagement_id is not None:
        query = query.where(AssertionRow.engagement_id == engagement_id)
    if created_before is not None:
        query = query.where(AssertionRow.created_at < created_before)
    return [get_assertion(session, aid) for aid in session.scalars(query)]
