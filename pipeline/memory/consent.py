"""Consent for sensitive profile fields (specification 004, "Consent Policy").

A personal fact that changes the person's preferred name, pronouns, city or language changes
who the companion thinks it is talking to, so it is applied only with consent. Which field a
fact changes is read when it is held and stored with it (pipeline/memory/profile_fields.py):
the classifier's typed reading, or the lent wording patterns when the answer does not say.
It stays held (never in a prompt) until the person confirms it in chat or accepts it with
`converse consent accept`, and a proposal nobody decided on expires after PROPOSAL_DAYS —
retracted with a rationale, which the assertion's history keeps beside every other decision.
Other held facts are left alone: they wait for a confirmation however long it takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from pipeline.domain import Assertion, HistoryActor, NormativeForce, Person, ProfileField
from pipeline.errors import InvalidMessage
from pipeline.memory.manage import numbered, personal_shelf
from pipeline.store import assertions as repo
from pipeline.store.proposals import held_personal

PROPOSAL_DAYS = 7


@dataclass(frozen=True)
class Proposal:
    """A held sensitive fact waiting for the person's decision."""

    assertion: Assertion
    field: ProfileField
    expires_at: datetime


def proposal_of(assertion: Assertion) -> Proposal | None:
    """The proposal a held assertion is, when it was held as a change of a sensitive field."""
    field = assertion.profile_field
    if field is None or assertion.force is not NormativeForce.HELD:
        return None
    return Proposal(assertion, field, assertion.created_at + timedelta(days=PROPOSAL_DAYS))


def pending(session: Session, person: Person) -> list[Proposal]:
    """The person's undecided proposals, oldest first."""
    shelf = personal_shelf(person)
    found = (proposal_of(a) for a in held_personal(session, engagement_id=shelf.engagement_id))
    return [p for p in found if p is not None]


def expire(session: Session, now: datetime) -> list[Proposal]:
    """Retract every proposal older than PROPOSAL_DAYS, in the caller's transaction."""
    cutoff = now - timedelta(days=PROPOSAL_DAYS)
    done: list[Proposal] = []
    for held in held_personal(session, created_before=cutoff):
        proposal = proposal_of(held)
        if proposal is None:
            continue
        rationale = (
            f"consent: a change of {proposal.field.label} was not confirmed within "
            f"{PROPOSAL_DAYS} days"
        )
        repo.set_force(
            session, held.id, NormativeForce.RETRACTED, rationale, by=HistoryActor.SYSTEM
        )
        done.append(proposal)
    return done


def decide(
    session: Session, person: Person, number: int, accept: bool, by: HistoryActor
) -> Assertion:
    """Accept (commit) or refuse (retract) the numbered proposal; its history records who."""
    held = numbered(session, person, number)
    if proposal_of(held) is None:
        raise InvalidMessage(
            f"#{number} is not a sensitive proposal waiting for consent",
            f"see `converse consent list --person {person.name!r}`; other facts are managed "
            "with `converse memory`",
        )
    if accept:
        return repo.set_force(session, held.id, NormativeForce.COMMITTED, by=by)
    return repo.set_force(
        session, held.id, NormativeForce.RETRACTED, "consent: refused by the person", by=by
    )
