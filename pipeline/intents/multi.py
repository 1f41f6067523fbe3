"""Several personal facts offered at once (multi-fact extraction, docs/memory.md): hold up to
three as one offer, then read the reply as confirming all, some or none of them.

The classifier's reading says which are kept: all (confirm), none (reject) or some (choose,
with their display numbers). What is confirmed is committed; what the person leaves out is
retracted (reversible, with a rationale), so nothing is silently kept or silently lost. An
unrelated reading (a new fact, a question) leaves the offer held, as for a single offer.
"""

from __future__ import annotations

from pipeline.actions import Action
from pipeline.domain import Assertion, HistoryActor, MemoryChange, NormativeForce, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.remember import MAX_WRITES_PER_TURN, RememberOutcome, hold_many, listed
from pipeline.reading import Relation
from pipeline.store import assertions as repo

HELD_MANY = Action.HELD_MANY
__all__ = ["HELD_MANY", "MAX_WRITES_PER_TURN", "answer_offer", "hold_many", "offered_many"]


def offered_many(ctx: HandlerContext) -> list[Assertion]:
    """The facts the previous companion turn offered together that are still held."""
    prior = RememberOutcome.of(ctx.prior_companion)
    personal_id = ctx.person.personal_engagement_id
    if prior is None or personal_id is None or prior.action is not HELD_MANY:
        return []
    held: list[Assertion] = []
    for item in prior.facts:
        try:
            found = repo.get_by_number(ctx.session, personal_id, item.display_number)
        except NotFound:  # erased meanwhile
            continue
        if found.force is NormativeForce.HELD:
            held.append(found)
    return held


def _kept_indexes(ctx: HandlerContext, offered: list[Assertion]) -> set[int] | None:
    """Which offered facts the reading keeps, or None when it does not answer the offer (no
    reading, or an unrelated one: the offer stays held, as an unanswered single offer is)."""
    reading = ctx.classified.reading
    if reading is None or reading.relation in (Relation.UNRELATED, Relation.CORRECT):
        return None
    if reading.relation is Relation.CONFIRM:
        return set(range(len(offered)))
    if reading.relation is Relation.REJECT:
        return set()
    chosen = set(reading.chosen)
    return {i for i, fact in enumerate(offered) if fact.display_number in chosen}


def answer_offer(ctx: HandlerContext) -> RouteResult | None:
    """Commit the facts the reply confirms and retract the rest; None when the reply does not
    answer an offer of several facts."""
    offered = offered_many(ctx)
    if not offered:
        return None
    kept = _kept_indexes(ctx, offered)
    if kept is None:
        return None
    committed: list[Assertion] = []
    declined: list[Assertion] = []
    changes: list[MemoryChange] = []
    for index, fact in enumerate(offered):
        if index in kept:
            after = ctx.decided.set_force(
                fact.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR
            )
            committed.append(after)
        else:
            after = ctx.decided.decline(
                fact.id,
                "Operator did not confirm it when it was offered with others",
                person_id=ctx.person.id,
            )
            declined.append(after)
        changes.append(MemoryChange.of(after, NormativeForce.HELD))
    action = (
        Action.COMMITTED_ALL
        if not declined
        else Action.DECLINED_ALL
        if not committed
        else Action.COMMITTED_SOME
    )
    return RememberOutcome(
        action=action, committed=listed(committed), declined=listed(declined)
    ).routed(changes)
