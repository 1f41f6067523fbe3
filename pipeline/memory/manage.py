"""Direct management of stored assertions: a person's personal memory (`converse memory`)
and, through the same functions on another shelf, a project's notes (`converse notes`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from pipeline.domain import (
    Assertion,
    Engagement,
    HistoryActor,
    HistoryEntry,
    NormativeForce,
    Person,
)
from pipeline.errors import InvalidMessage, NotFound
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.erasure import erase_assertions, erase_mentions, left_mentions
from pipeline.store.history import history_of
from pipeline.store.people import get_person, get_project

# Who the management functions write as, unless the caller says otherwise: someone at the
# command line or the Python API, not the person in conversation.
MANAGER = HistoryActor.CLI


@dataclass(frozen=True)
class Shelf:
    """One engagement's assertions as the commands name them.

    `tag` prefixes a display number (`#3` for personal facts, `notes#3` for project notes) so a
    number printed by one command group is never taken for the other's.
    """

    engagement_id: int
    where: str  # "ana's personal memory", "project 'Garden'"
    tag: str
    list_command: str
    restore_command: str
    command: str  # "converse memory", "converse notes ... --project 'Garden'"


def personal_shelf(person: Person) -> Shelf:
    """The person's personal memory as a shelf."""
    if person.personal_engagement_id is None:
        raise NotFound(f"{person.name} has no personal memory", "recreate the person")
    return Shelf(
        engagement_id=person.personal_engagement_id,
        where=f"{person.name}'s personal memory",
        tag="#",
        list_command=f"converse memory list --person {person.name!r}",
        restore_command=f"converse memory restore N --person {person.name!r}",
        command="converse memory",
    )


def project_shelf(person: Person, project: Engagement) -> Shelf:
    """The project's notes as a shelf."""
    named = f"--person {person.name!r} --project {project.name!r}"
    return Shelf(
        engagement_id=project.id,
        where=f"project {project.name!r}",
        tag="notes#",
        list_command=f"converse notes list {named}",
        restore_command=f"converse notes restore N {named}",
        command="converse notes",
    )


def personal_assertions(
    session: Session, person: Person, include_retracted: bool = False, include_deleted: bool = False
) -> list[Assertion]:
    """The person's personal assertions, newest first."""
    return shelf_assertions(session, personal_shelf(person), include_retracted, include_deleted)


def shelf_assertions(
    session: Session, shelf: Shelf, include_retracted: bool = False, include_deleted: bool = False
) -> list[Assertion]:
    """The shelf's assertions, newest first (held and committed; retracted when asked;
    soft-deleted ones when asked)."""
    forces = None if include_retracted else [NormativeForce.HELD, NormativeForce.COMMITTED]
    return repo.list_assertions(
        session, shelf.engagement_id, forces, include_deleted=include_deleted
    )


def numbered(
    session: Session, person: Person, number: int, include_deleted: bool = False
) -> Assertion:
    """#number of the person's personal memory, or an error saying what exists."""
    return on_shelf(session, personal_shelf(person), number, include_deleted)


def on_shelf(
    session: Session, shelf: Shelf, number: int, include_deleted: bool = False
) -> Assertion:
    """The shelf's assertion with this number, or an error saying what exists.

    A soft-deleted one is an error naming the restore command, unless `include_deleted`."""
    if not repo.list_assertions(session, shelf.engagement_id, limit=1, include_deleted=True):
        raise NotFound(f"nothing is stored in {shelf.where}", "there is nothing to change")
    try:
        found = repo.get_by_number(session, shelf.engagement_id, number, include_deleted=True)
    except NotFound:
        raise NotFound(
            f"{shelf.where} has no {shelf.tag}{number}",
            f"see the numbers with `{shelf.list_command}`",
        ) from None
    if found.deleted_at is not None and not include_deleted:
        raise InvalidMessage(
            f"{shelf.tag}{number} was set aside by the lifecycle sweep on "
            f"{found.deleted_at:%Y-%m-%d}",
            f"bring it back first with `{shelf.restore_command}`",
        )
    return found


def retract(session: Session, person: Person, number: int, by: HistoryActor = MANAGER) -> Assertion:
    """Retract #number (reversible)."""
    return retract_on(session, personal_shelf(person), number, by)


def retract_on(
    session: Session, shelf: Shelf, number: int, by: HistoryActor = MANAGER
) -> Assertion:
    """Retract the shelf's assertion with this number (reversible)."""
    found = on_shelf(session, shelf, number)
    if found.force is NormativeForce.RETRACTED:
        raise InvalidMessage(
            f"{shelf.tag}{number} is already retracted",
            f"restore it with `{shelf.restore_command}`",
        )
    return repo.set_force(
        session, found.id, NormativeForce.RETRACTED, "Retracted by the operator", by=by
    )


def restore(session: Session, person: Person, number: int, by: HistoryActor = MANAGER) -> Assertion:
    """Bring #number back: a soft-deleted one as it was, a retracted one as committed."""
    return restore_on(session, personal_shelf(person), number, by)


def restore_on(
    session: Session, shelf: Shelf, number: int, by: HistoryActor = MANAGER
) -> Assertion:
    """Bring the shelf's assertion with this number back: one the lifecycle sweep set aside
    returns as it was (still retracted if it was), a retracted one as committed."""
    found = on_shelf(session, shelf, number, include_deleted=True)
    if found.deleted_at is not None:
        return repo.restore_deleted(session, found.id, by=by)
    if found.force is not NormativeForce.RETRACTED:
        raise InvalidMessage(
            f"{shelf.tag}{number} is not retracted (it is {found.force.value})",
            "nothing to restore",
        )
    return repo.set_force(session, found.id, NormativeForce.COMMITTED, by=by)


def pin_on(
    session: Session, shelf: Shelf, number: int, pinned: bool, by: HistoryActor = MANAGER
) -> Assertion:
    """Pin (never set aside by the lifecycle sweep) or unpin the shelf's assertion."""
    found = on_shelf(session, shelf, number)
    if found.pinned == pinned:
        raise InvalidMessage(
            f"{shelf.tag}{number} is already {'pinned' if pinned else 'not pinned'}",
            "nothing to change",
        )
    return repo.set_pinned(session, found.id, pinned, by=by)


def category_on(
    session: Session, shelf: Shelf, number: int, category: str, by: HistoryActor = MANAGER
) -> Assertion:
    """File the shelf's assertion under another category (pipeline/categories.yaml)."""
    found = on_shelf(session, shelf, number)
    if found.category == category:
        raise InvalidMessage(f"{shelf.tag}{number} is already in {category!r}", "nothing to change")
    return repo.set_category(session, found.id, category, by=by)


def importance_on(
    session: Session, shelf: Shelf, number: int, importance: float, by: HistoryActor = MANAGER
) -> Assertion:
    """Set how much the shelf's assertion matters, from 0 to 1."""
    if not 0.0 <= importance <= 1.0:
        raise InvalidMessage(
            f"importance {importance:g} is not between 0 and 1", "give a number such as 0.2"
        )
    found = on_shelf(session, shelf, number)
    return repo.set_importance(session, found.id, importance, by=by)


def history_on(session: Session, shelf: Shelf, number: int) -> list[HistoryEntry]:
    """Every write to the shelf's assertion with this number, oldest first: also for one
    soft-deleted, erased or purged (its text then removed)."""
    found = history_of(session, shelf.engagement_id, number)
    if not found:
        # No history: an error naming what exists, unless it was stored before history was
        # kept (migration 0005) and so has none yet.
        on_shelf(session, shelf, number, include_deleted=True)
    return found


def erase(
    session: Session, person: Person, numbers: list[int], by: HistoryActor = MANAGER
) -> list[Assertion]:
    """Erase the numbered assertions permanently, all or none: each assertion, its embeddings,
    and the text of every turn that carried it (docs/memory.md, "Erase")."""
    return erase_on(session, personal_shelf(person), numbers, by)


def erase_on(
    session: Session, shelf: Shelf, numbers: list[int], by: HistoryActor = MANAGER
) -> list[Assertion]:
    """Erase the shelf's numbered assertions permanently, all or none (soft-deleted ones
    included)."""
    if not numbers:
        raise InvalidMessage("no assertion numbers given", "name the numbers to erase, e.g. 3 5")
    found = [on_shelf(session, shelf, n, include_deleted=True) for n in numbers]
    erase_assertions(session, [a.id for a in found], actor=by)
    return found


@dataclass(frozen=True)
class Erasure:
    """What an erasure removed, and whether the database file no longer holds old copies."""

    erased: list[Assertion]
    checkpointed: bool
    mentions: int = 0  # turns erased because they mentioned a text asked for
    # each word of an erased fact that turns still hold, with those turns' ids
    left: tuple[tuple[str, tuple[int, ...]], ...] = ()


def erase_numbers(
    store: Store,
    person: str,
    numbers: list[int],
    mentions: Sequence[str] = (),
    stop_words: Collection[str] = frozenset(),
) -> Erasure:
    """Erase #numbers of the person's personal memory, and with `mentions` every turn of the
    person that mentions one of those texts (numbers may then be none), in one transaction;
    then checkpoint the SQLite WAL. The result names the words of the erased facts that other
    turns still hold (`left`; `stop_words`, the lexicon's, are never reported)."""
    with store.write() as session:
        found = get_person(session, person)
        erased = erase(session, found, numbers) if numbers or not mentions else []
        scrubbed = erase_mentions(session, found.id, mentions) if mentions else 0
        left = left_mentions(session, found.id, [a.content for a in erased], stop_words)
    kept = tuple((word, tuple(ids)) for word, ids in left)
    return Erasure(erased, store.checkpoint(), scrubbed, kept)


def erase_notes(store: Store, person: str, project: str, numbers: list[int]) -> Erasure:
    """Erase notes#numbers of the person's project, exactly as a personal fact is erased,
    then checkpoint the SQLite WAL."""
    with store.write() as session:
        found = get_person(session, person)
        shelf = project_shelf(found, get_project(session, found, project))
        erased = erase_on(session, shelf, numbers)
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
            a
            for a in personal_assertions(session, found, True, include_deleted=True)
            if wanted in a.content.casefold()
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
            f"erase by number with `converse memory erase N --person {person!r}`",
        )
    return erase_numbers(store, person, [matches[0].display_number])


def _number(a: Assertion) -> int:
    return a.display_number
