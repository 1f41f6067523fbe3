"""Direct management of a person's personal memory (the `converse memory` commands)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from pipeline.domain import Assertion, NormativeForce, Person
from pipeline.errors import InvalidMessage, NotFound
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.erasure import erase_assertions
from pipeline.store.people import get_person


def _personal_id(person: Person) -> int:
    if person.personal_engagement_id is None:
        raise NotFound(f"{person.name} has no personal memory", "recreate the person")
    return person.personal_engagement_id


def personal_assertions(
    session: Session, person: Person, include_retracted: bool = False
) -> list[Assertion]:
    """The person's personal assertions, newest first."""
    forces = None if include_retracted else [NormativeForce.HELD, NormativeForce.COMMITTED]
    return repo.list_assertions(session, _personal_id(person), forces)


def numbered(session: Session, person: Person, number: int) -> Assertion:
    """#number of the person's personal memory, or an error saying what exists."""
    engagement_id = _personal_id(person)
    if not repo.list_assertions(session, engagement_id, limit=1):
        raise NotFound(
            f"nothing is stored in {person.name}'s personal memory", "there is nothing to change"
        )
    try:
        return repo.get_by_number(session, engagement_id, number)
    except NotFound:
        raise NotFound(
            f"{person.name}'s personal memory has no #{number}",
            f"see the numbers with `converse memory list --person {person.name!r}`",
        ) from None


def retract(session: Session, person: Person, number: int) -> Assertion:
    """Retract #number (reversible)."""
    found = numbered(session, person, number)
    if found.force is NormativeForce.RETRACTED:
        raise InvalidMessage(
            f"#{number} is already retracted", "restore it with `converse memory restore`"
        )
    return repo.set_force(session, found.id, NormativeForce.RETRACTED, "Retracted by the operator")


def restore(session: Session, person: Person, number: int) -> Assertion:
    """Bring a retracted #number back as committed."""
    found = numbered(session, person, number)
    if found.force is not NormativeForce.RETRACTED:
        raise InvalidMessage(
            f"#{number} is not retracted (it is {found.force.value})", "nothing to restore"
        )
    return repo.set_force(session, found.id, NormativeForce.COMMITTED)


def erase(session: Session, person: Person, numbers: list[int]) -> list[Assertion]:
    """Erase the numbered assertions permanently, all or none: each assertion, its embeddings,
    and the text of every turn that carried it (docs/memory.md, "Erase")."""
    if not numbers:
        raise InvalidMessage("no assertion numbers given", "name the numbers to erase, e.g. 3 5")
    found = [numbered(session, person, n) for n in numbers]
    erase_assertions(session, [a.id for a in found])
    return found


@dataclass(frozen=True)
class Erasure:
    """What an erasure removed, and whether the database file no longer holds old copies."""

    erased: list[Assertion]
    checkpointed: bool


def erase_numbers(store: Store, person: str, numbers: list[int]) -> Erasure:
    """Erase #numbers of the person's personal memory, then checkpoint the SQLite WAL."""
    with store.write() as session:
        erased = erase(session, get_person(session, person), numbers)
    return Erasure(erased, store.checkpoint())


def erase_fact(store: Store, person: str, containing: str) -> Erasure:
    """Erase the one personal fact (held, committed or retracted) whose text contains
    `containing`, case ignored; an error when none or several do."""
    wanted = " ".join(containing.split()).casefold()
    if not wanted:
        raise InvalidMessage("nothing to look for", "say which fact to erase")
    with store.read() as session:
        found = get_person(session, person)
        matches = [
            a for a in personal_assertions(session, found, True) if wanted in a.content.casefold()
        ]
    if not matches:
        raise NotFound(
            f"no personal fact of {person} contains {containing!r}",
            f"see them with `converse memory list --all --person {person!r}`",
        )
    if len(matches) > 1:
        numbers = ", ".join(f"#{a.display_number}" for a in sorted(matches, key=_number))
        raise InvalidMessage(
            f"{len(matches)} personal facts contain {containing!r} ({numbers})",
            "erase by number with `converse memory erase N`",
        )
    return erase_numbers(store, person, [matches[0].display_number])


def _number(a: Assertion) -> int:
    return a.display_number
