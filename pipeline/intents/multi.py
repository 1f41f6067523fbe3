"""Several personal facts offered at once (multi-fact extraction, docs/memory.md): hold up to
three as one offer, then read the reply as confirming all, some or none of them.

The classifier's reading says which are kept: all (confirm), none (reject) or some (choose,
with their display numbers). What is confirmed is committed; what the person leaves out is
retracted (reversible, with a rationale), so nothing is silently kept or silently lost. An
unrelated reading (a new fact, a question) leaves the offer held, as for a single offer.
"""

from __future__ import annotations

from typing import Any

from pipeline.actions import Action
from pipeline.domain import (
    ActorKind,
    Assertion,
    HistoryActor,
    MemoryChange,
    NormativeForce,
    RouteResult,
)
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.facts import same_fact
from pipeline.memory.profile_fields import fields_of_many
from pipeline.reading import Relation
from pipeline.store import assertions as repo

INTENT = "remember_about_me"
HELD_MANY = Action.HELD_MANY
MAX_WRITES_PER_TURN = 3  # specification 004, section 13


def offered_many(ctx: HandlerContext) -> list[Assertion]:
    """The facts the previous companion turn offered together that are still held."""
    prior = ctx.prior_companion
    personal_id = ctx.person.personal_engagement_id
    if prior is None or personal_id is None or prior.operation_data.get("action") != HELD_MANY:
        return []
    held: list[Assertion] = []
    for item in prior.operation_data.get("facts", []):
        number = item.get("display_number") if isinstance(item, dict) else None
        if not isinstance(number, int):
            continue
        try:
            found = repo.get_by_number(ctx.session, personal_id, number)
        except NotFound:  # erased meanwhile
            continue
        if found.force is NormativeForce.HELD:
            held.append(found)
    return held


def _listed(facts: list[Assertion]) -> list[dict[str, Any]]:
    return [{"display_number": a.display_number, "content": a.content} for a in facts]


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
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": action,
            "committed": _listed(committed),
            "declined": _listed(declined),
        },
        changes=tuple(changes),
    )


def hold_many(ctx: HandlerContext, personal_id: int) -> RouteResult | None:
    """Hold up to `ctx.max_new_facts` (at most three) of the turn's candidate facts as one
    offer; None when fewer than two are new, so the single-fact flow answers as before."""
    live = repo.list_assertions(
        ctx.session, personal_id, [NormativeForce.HELD, NormativeForce.COMMITTED], limit=500
    )
    known = [c for c in ctx.candidates if any(same_fact(c, a.content) for a in live)]
    new = [c for c in ctx.candidates if c not in known]
    room = min(MAX_WRITES_PER_TURN, ctx.max_new_facts)
    if len(new) < 2 or room < 2:
        return None
    kept = new[:room]
    fields = fields_of_many(ctx.classified.profile_field, kept, ctx.lexicon)
    created = [
        ctx.decided.add(
            personal_id,
            fact,
            ActorKind.COMPANION,
            NormativeForce.HELD,
            created_at=ctx.now,
            profile_field=field,
        )
        for fact, field in zip(kept, fields, strict=True)
    ]
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": HELD_MANY,
            "facts": _listed(created),
            "already_known": known,
            "left_out": new[room:],
        },
        changes=tuple(MemoryChange.of(a, None) for a in created),
    )
