"""What a handler decides to write, as typed commands, and their one application.

A handler reads through its session and writes only through `Writes`: each call records a
command and returns the assertion as it will be once the command is applied, so the reply can
be written from the decision before anything is stored. `apply` then runs the commands once,
in the transaction that stores the turn (pipeline/converse.py). A command whose assertion
changed since the decision (another process wrote meanwhile) raises `StaleDecision`, and the
turn is decided again there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, Assertion, HistoryActor, NormativeForce, ProfileField
from pipeline.errors import ConverseError
from pipeline.store import assertions as repo
from pipeline.store import embeddings as vectors_repo
from pipeline.store import status as status_repo
from pipeline.store.embeddings import StoredVector
from pipeline.store.tables import EngagementRow

# Where a decision's read session keeps the vectors its searches computed (pipeline/memory/
# vectors.py): stored with the turn, not by the read.
UNSAVED_VECTORS = "unsaved_vectors"


class StaleDecision(ConverseError):
    """Memory moved between the decision and its application."""


@dataclass(frozen=True)
class SetForce:
    """Commit, retract (with a rationale) or restore an assertion."""

    before: Assertion
    force: NormativeForce
    rationale: str | None
    by: HistoryActor


@dataclass(frozen=True)
class Amend:
    """Replace an assertion's content, keeping its force."""

    before: Assertion
    content: str
    by: HistoryActor
    profile_field: ProfileField | None = None


@dataclass(frozen=True)
class Add:
    """A new assertion, with the display number the engagement gives it next."""

    engagement_id: int
    display_number: int
    content: str
    actor: ActorKind
    force: NormativeForce
    created_at: datetime | None
    profile_field: ProfileField | None = None


@dataclass(frozen=True)
class DropNotes:
    """Delete the person's status notes that carry a text: the words of an offer the person
    turned down, noted as a status on the turn that offered them."""

    person_id: int
    text: str


WriteCommand = SetForce | Amend | Add | DropNotes


@dataclass
class Writes:
    """The commands one decision records, in order."""

    session: Session
    commands: list[WriteCommand] = field(default_factory=list)
    # (model, vectors) that the decision's searches computed and the read could not store
    vectors: list[tuple[str, list[StoredVector]]] = field(default_factory=list)
    _latest: dict[int, Assertion] = field(default_factory=dict)
    _next_number: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.session.info[UNSAVED_VECTORS] = self.vectors

    def _current(self, assertion_id: int) -> Assertion:
        if assertion_id in self._latest:
            return self._latest[assertion_id]
        return repo.get_assertion(self.session, assertion_id)

    def decline(self, assertion_id: int, rationale: str, *, person_id: int) -> Assertion:
        """Record that the person turned down an offered fact: it is retracted, and their
        status notes carrying its words go (noted from the same message, they would outlive
        the no); the assertion as it will be."""
        after = self.set_force(
            assertion_id, NormativeForce.RETRACTED, rationale, by=HistoryActor.OPERATOR
        )
        self.commands.append(DropNotes(person_id, after.content))
        return after

    def set_force(
        self,
        assertion_id: int,
        force: NormativeForce,
        rationale: str | None = None,
        *,
        by: HistoryActor,
    ) -> Assertion:
        """Record a change of force; the assertion as it will be."""
        before = self._current(assertion_id)
        self.commands.append(SetForce(before, force, rationale, by))
        moment = utcnow()
        after = before.model_copy(
            update={
                "force": force,
                "retraction_rationale": rationale if force is NormativeForce.RETRACTED else None,
                "updated_at": moment,
                "last_accessed_at": moment,
            }
        )
        self._latest[assertion_id] = after
        return after

    def amend(
        self,
        assertion_id: int,
        content: str,
        *,
        by: HistoryActor,
        profile_field: ProfileField | None = None,
    ) -> Assertion:
        """Record a new content, and the sensitive field it changes; the assertion as it
        will be."""
        before = self._current(assertion_id)
        self.commands.append(Amend(before, content, by, profile_field))
        moment = utcnow()
        after = before.model_copy(
            update={
                "content": content,
                "profile_field": profile_field,
                "updated_at": moment,
                "last_accessed_at": moment,
            }
        )
        self._latest[assertion_id] = after
        return after

    def add(
        self,
        engagement_id: int,
        content: str,
        actor: ActorKind,
        force: NormativeForce = NormativeForce.HELD,
        created_at: datetime | None = None,
        profile_field: ProfileField | None = None,
    ) -> Assertion:
        """Record a new assertion; it as it will be (its id is not known until it is stored,
        so it carries a negative placeholder; its display number is the one it will get).
        `profile_field`: the sensitive field a personal fact changes (consent)."""
        number = self._next_number.get(engagement_id)
        if number is None:
            last = self.session.scalar(
                select(EngagementRow.last_display_number).where(EngagementRow.id == engagement_id)
            )
            number = int(last or 0) + 1
        self._next_number[engagement_id] = number + 1
        self.commands.append(
            Add(engagement_id, number, content, actor, force, created_at, profile_field)
        )
        moment = created_at or utcnow()
        return Assertion(
            id=-len(self.commands),
            engagement_id=engagement_id,
            display_number=number,
            content=content,
            actor=actor,
            force=force,
            created_at=moment,
            updated_at=moment,
            last_accessed_at=moment,
            profile_field=profile_field,
        )


def apply(session: Session, writes: Writes) -> None:
    """Run a decision's commands once, in order, and store the vectors its searches computed;
    StaleDecision when a command no longer fits what is stored (the assertion changed, or the
    display number was taken)."""
    for model, computed in writes.vectors:
        vectors_repo.save_vectors(session, model, computed)
    _run(session, writes.commands)


def _run(session: Session, commands: Sequence[WriteCommand]) -> None:
    for command in commands:
        if isinstance(command, DropNotes):
            status_repo.erase_carrying(session, [command.person_id], [], [command.text])
            continue
        if isinstance(command, Add):
            added = repo.add_assertion(
                session,
                command.engagement_id,
                command.content,
                command.actor,
                command.force,
                command.created_at,
                profile_field=command.profile_field,
            )
            if added.display_number != command.display_number:
                raise StaleDecision(
                    f"#{command.display_number} was taken while the turn was decided",
                    "the turn is decided again",
                )
            continue
        now = repo.get_assertion(session, command.before.id)
        if (now.force, now.content) != (command.before.force, command.before.content):
            raise StaleDecision(
                f"#{now.display_number} changed while the turn was decided",
                "the turn is decided again",
            )
        if isinstance(command, SetForce):
            repo.set_force(session, now.id, command.force, command.rationale, by=command.by)
        else:
            repo.amend_content(
                session, now.id, command.content, by=command.by, profile_field=command.profile_field
            )
