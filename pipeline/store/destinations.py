"""Where a conversation's memories go (migration 0011): the person's Your Story, or one of
their projects; made on first use, archived or deleted (a deleted project's memories move to
Your Story). pipeline/store/memories.py also exports these names."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.conversation_models import YOUR_STORY, Destination
from pipeline.errors import ConverseError, NotFound, PermanentDestination
from pipeline.store.conversation_rows import DestinationRow, MemoryRow
from pipeline.store.tables import EngagementRow


def your_story(session: Session, person_id: int) -> DestinationRow:
    """The person's Your Story, made on first use."""
    row = session.execute(
        select(DestinationRow).where(
            DestinationRow.person_id == person_id, DestinationRow.kind == "your_story"
        )
    ).scalar_one_or_none()
    if row is None:
        row = DestinationRow(person_id=person_id, kind="your_story", engagement_id=None)
        session.add(row)
        session.flush()
    return row


def _project(session: Session, person_id: int, name: str) -> EngagementRow | None:
    return session.execute(
        select(EngagementRow).where(
            EngagementRow.owner_person_id == person_id,
            EngagementRow.visibility == "project",
            EngagementRow.name == name,
        )
    ).scalar_one_or_none()


def destination(session: Session, person_id: int, name: str) -> DestinationRow:
    """The destination called `name`: Your Story, or one of the person's projects."""
    if name.strip().casefold() == YOUR_STORY.casefold():
        return your_story(session, person_id)
    project = _project(session, person_id, name.strip())
    if project is None:
        raise NotFound(
            f"no destination {name!r}: neither {YOUR_STORY} nor one of this person's projects",
            "list them with `converse project list --person NAME`",
        )
    row = session.execute(
        select(DestinationRow).where(
            DestinationRow.person_id == person_id, DestinationRow.engagement_id == project.id
        )
    ).scalar_one_or_none()
    if row is None:
        row = DestinationRow(person_id=person_id, kind="project", engagement_id=project.id)
        session.add(row)
        session.flush()
    if row.archived_at is not None:
        raise ConverseError(
            f"the destination {name!r} is archived", f"choose another, or {YOUR_STORY}"
        )
    return row


def destination_names(session: Session, person_id: int) -> list[str]:
    """Your Story, then the person's projects whose destination is not archived."""
    archived = set(
        session.execute(
            select(DestinationRow.engagement_id).where(
                DestinationRow.person_id == person_id, DestinationRow.archived_at.is_not(None)
            )
        ).scalars()
    )
    projects = session.execute(
        select(EngagementRow.id, EngagementRow.name)
        .where(EngagementRow.owner_person_id == person_id, EngagementRow.visibility == "project")
        .order_by(EngagementRow.name)
    ).all()
    return [YOUR_STORY, *(name for pid, name in projects if pid not in archived)]


def archive_destination(session: Session, person_id: int, name: str, now: datetime) -> None:
    """Stop routing memories to a project (its memories stay); Your Story refuses."""
    row = destination(session, person_id, name)
    if row.kind == "your_story":
        raise PermanentDestination(
            f"{YOUR_STORY} is permanent and cannot be archived", "archive a project instead"
        )
    row.archived_at = now


def delete_destination(session: Session, person_id: int, name: str) -> int:
    """Remove a project destination; its memories move to Your Story (none is lost).
    Your Story refuses. Returns how many memories moved."""
    row = destination(session, person_id, name)
    if row.kind == "your_story":
        raise PermanentDestination(
            f"{YOUR_STORY} is permanent and cannot be deleted", "delete a project instead"
        )
    story = your_story(session, person_id)
    moved = list(
        session.execute(select(MemoryRow).where(MemoryRow.destination_id == row.id)).scalars()
    )
    for memory in moved:
        memory.destination_id = story.id
    session.flush()
    session.delete(row)
    return len(moved)


def _destination(session: Session, destination_id: int) -> Destination:
    row = session.get(DestinationRow, destination_id)
    assert row is not None
    if row.kind == "your_story":
        return Destination(id=row.id, name=YOUR_STORY, kind=row.kind, engagement_id=None)
    project = session.get(EngagementRow, row.engagement_id)
    return Destination(
        id=row.id,
        name=project.name if project else f"project {row.engagement_id}",
        kind=row.kind,
        engagement_id=row.engagement_id,
        archived=row.archived_at is not None,
    )
