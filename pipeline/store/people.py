"""Persons and engagements."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import PERSONAL_SEED, Engagement, Person, Visibility
from pipeline.errors import InvalidMessage, NotFound
from pipeline.store.tables import EngagementRow, PersonRow


def _person(row: PersonRow) -> Person:
    return Person(id=row.id, name=row.name, personal_engagement_id=row.personal_engagement_id)


def _engagement(row: EngagementRow) -> Engagement:
    return Engagement(
        id=row.id,
        name=row.name,
        visibility=Visibility(row.visibility),
        seed=row.seed,
        owner_person_id=row.owner_person_id,
    )


def _clean_name(name: str, what: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidMessage(f"the {what} name is empty", f"give the {what} a name")
    if len(cleaned) > 200:
        raise InvalidMessage(f"the {what} name is over 200 characters", "use a shorter name")
    return cleaned


def create_person(session: Session, name: str) -> Person:
    """Create a person together with their personal engagement."""
    name = _clean_name(name, "person")
    if session.scalar(select(PersonRow.id).where(PersonRow.name == name)) is not None:
        raise InvalidMessage(f"a person named {name!r} already exists", "pick another name")
    now = utcnow()
    person = PersonRow(name=name, created_at=now)
    session.add(person)
    session.flush()
    personal = EngagementRow(
        name=f"{name} — personal",
        visibility=Visibility.PERSONAL.value,
        seed=PERSONAL_SEED,
        owner_person_id=person.id,
        created_at=now,
    )
    session.add(personal)
    session.flush()
    person.personal_engagement_id = personal.id
    session.flush()
    return _person(person)


def get_person(session: Session, name: str) -> Person:
    """The person with this name."""
    row = session.scalar(select(PersonRow).where(PersonRow.name == " ".join(name.split())))
    if row is None:
        raise NotFound(
            f"no person named {name!r}", f"create one with `converse person add {name!r}`"
        )
    return _person(row)


def get_person_by_id(session: Session, person_id: int) -> Person:
    """The person with this id."""
    row = session.get(PersonRow, person_id)
    if row is None:
        raise NotFound(f"no person with id {person_id}", "check the id")
    return _person(row)


def list_persons(session: Session) -> list[Person]:
    """Every person, by name."""
    return [_person(r) for r in session.scalars(select(PersonRow).order_by(PersonRow.name))]


def create_project(session: Session, person: Person, name: str, seed: str = "") -> Engagement:
    """Create a project engagement owned by the person."""
    name = _clean_name(name, "project")
    exists = session.scalar(
        select(EngagementRow.id).where(
            EngagementRow.owner_person_id == person.id, EngagementRow.name == name
        )
    )
    if exists is not None:
        raise InvalidMessage(
            f"{person.name} already has a project named {name!r}", "pick another name"
        )
    row = EngagementRow(
        name=name,
        visibility=Visibility.PROJECT.value,
        seed=seed.strip(),
        owner_person_id=person.id,
        created_at=utcnow(),
    )
    session.add(row)
    session.flush()
    return _engagement(row)


def get_project(session: Session, person: Person, name: str) -> Engagement:
    """The person's project with this name."""
    row = session.scalar(
        select(EngagementRow).where(
            EngagementRow.owner_person_id == person.id,
            EngagementRow.visibility == Visibility.PROJECT.value,
            EngagementRow.name == " ".join(name.split()),
        )
    )
    if row is None:
        raise NotFound(
            f"{person.name} has no project named {name!r}",
            f"create it with `converse project add {name!r} --person {person.name!r}`",
        )
    return _engagement(row)


def list_projects(session: Session, person: Person) -> list[Engagement]:
    """The person's projects, by name."""
    rows = session.scalars(
        select(EngagementRow)
        .where(
            EngagementRow.owner_person_id == person.id,
            EngagementRow.visibility == Visibility.PROJECT.value,
        )
        .order_by(EngagementRow.name)
    )
    return [_engagement(r) for r in rows]


def get_engagement(session: Session, engagement_id: int) -> Engagement:
    """The engagement with this id."""
    row = session.get(EngagementRow, engagement_id)
    if row is None:
        raise NotFound(f"no engagement with id {engagement_id}", "check the id")
    return _engagement(row)
