"""remember_about_me: held -> committed on confirmation, refined, or retracted on rejection."""

from __future__ import annotations

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
from pipeline.intents.cues import (
    is_affirmation,
    is_correction,
    is_cross_promotion_offer,
    is_first_person_clause,
    is_rejection,
    limits_to_project,
)
from pipeline.intents.facts import clean_fact, related_facts, same_fact, says_something
from pipeline.intents.multi import hold_many
from pipeline.store import assertions as repo

INTENT = "remember_about_me"


def offered_held(ctx: HandlerContext) -> Assertion | None:
    """The held assertion the previous companion turn offered to remember, if still held."""
    prior = ctx.prior_companion
    personal_id = ctx.person.personal_engagement_id
    if prior is None or personal_id is None or prior.intent != INTENT:
        return None
    if prior.operation_data.get("action") not in ("held", "refined"):
        return None
    number = prior.operation_data.get("assertion_display_number")
    held: Assertion | None = None
    if isinstance(number, int):
        try:
            held = repo.get_by_number(ctx.session, personal_id, number)
        except NotFound:  # erased meanwhile; fall back to the latest offer
            held = None
    if held is None or held.actor is not ActorKind.COMPANION:
        held = repo.latest_held_by_companion(ctx.session, personal_id)
    if held is None or held.force is not NormativeForce.HELD:
        return None
    return held


def _corrects(message: str, fact: str, held: str) -> bool:
    """Whether the reply corrects the offered fact rather than stating a new one.

    A correction carries a cue ("no", "actually", "I mean", "X, not Y") or is a bare value
    about the offer ("March 16th", "shrimp only"); "I'm allergic to kiwi" after an offer of
    "allergic to peanuts" is a second fact, and neither overwrites the other.
    """
    if is_correction(message):
        return True
    short = len(message.split()) <= 4 and not is_first_person_clause(message)
    return short and bool(message.strip()) and related_facts(fact, held)


def _existing(ctx: HandlerContext, personal_id: int, fact: str) -> Assertion | None:
    """A live personal fact that already says this (restating it stores nothing new)."""
    live = repo.list_assertions(
        ctx.session, personal_id, [NormativeForce.HELD, NormativeForce.COMMITTED], limit=500
    )
    return next((a for a in live if same_fact(fact, a.content)), None)


def _committed(held: Assertion, ctx: HandlerContext, *, promoted: bool = False) -> RouteResult:
    committed = repo.set_force(
        ctx.session, held.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR
    )
    data: dict[str, object] = {
        "action": "committed",
        "personal_fact": committed.content,
        "assertion_display_number": committed.display_number,
    }
    if promoted:
        data["cross_promoted"] = True
    return RouteResult(
        intent=INTENT,
        operation_data=data,
        changes=(MemoryChange.of(committed, held.force),),
    )


def _new_fact(ctx: HandlerContext, personal_id: int, fact: str) -> RouteResult:
    promoted = offers_cross_promotion(ctx) and is_affirmation(ctx.message)
    existing = _existing(ctx, personal_id, fact)
    if existing is not None:
        if promoted and existing.force is NormativeForce.HELD:
            return _committed(existing, ctx, promoted=True)
        action = "already_known" if existing.force is NormativeForce.COMMITTED else "held"
        return RouteResult(
            intent=INTENT,
            operation_data={
                "action": action,
                "personal_fact": existing.content,
                "assertion_display_number": existing.display_number,
            },
        )
    # After a cross-promotion offer the person has just said yes to this very fact, so it
    # is committed at once instead of being offered a second time.
    force = NormativeForce.COMMITTED if promoted else NormativeForce.HELD
    created = repo.add_assertion(ctx.session, personal_id, fact, ActorKind.COMPANION, force)
    data: dict[str, object] = {
        "action": "committed" if promoted else "held",
        "personal_fact": created.content,
        "assertion_display_number": created.display_number,
    }
    if promoted:
        data["cross_promoted"] = True
    return RouteResult(
        intent=INTENT, operation_data=data, changes=(MemoryChange.of(created, None),)
    )


def handle_remember(ctx: HandlerContext) -> RouteResult:
    """Hold a new personal fact, or commit / refine the one offered on the previous turn."""
    personal_id = ctx.person.personal_engagement_id
    if personal_id is None:
        return RouteResult(intent=INTENT, operation_data={"error": "no_personal_engagement"})
    fact = clean_fact(ctx.param("personal_fact"))
    held = offered_held(ctx)
    if held is not None:
        if ctx.project is not None and limits_to_project(ctx.message, ctx.project.name):
            return keep_in_project(ctx, held)
        if is_rejection(ctx.message):
            return reject_offer(ctx, held)
        if not fact or same_fact(fact, held.content) or is_affirmation(ctx.message):
            return _committed(held, ctx)
        if _corrects(ctx.message, fact, held.content):
            return _refined(ctx, held, fact)
    if len(ctx.candidates) >= 2:
        many = hold_many(ctx, personal_id)
        if many is not None:
            return many
    if not fact or not says_something(fact):
        return RouteResult(intent=INTENT, operation_data={"error": "no_personal_fact"})
    return _new_fact(ctx, personal_id, fact)


def _refined(ctx: HandlerContext, held: Assertion, fact: str) -> RouteResult:
    refined = repo.amend_content(ctx.session, held.id, fact, by=HistoryActor.OPERATOR)
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": "refined",
            "personal_fact": refined.content,
            "previous_fact": held.content,
            "assertion_display_number": refined.display_number,
        },
        changes=(MemoryChange.of(refined, NormativeForce.HELD),),
    )


def reject_offer(ctx: HandlerContext, held: Assertion) -> RouteResult:
    """Retract the offered fact the person turned down."""
    retracted = repo.set_force(
        ctx.session,
        held.id,
        NormativeForce.RETRACTED,
        "Operator declined the offer to remember it",
        by=HistoryActor.OPERATOR,
    )
    return RouteResult(
        intent="general_conversation",
        operation_data={
            "action": "rejected",
            "retracted_fact": retracted.content,
            "assertion_display_number": retracted.display_number,
        },
        changes=(MemoryChange.of(retracted, NormativeForce.HELD),),
    )


def offers_cross_promotion(ctx: HandlerContext) -> bool:
    """Whether the previous companion turn offered to remember a project fact everywhere."""
    prior = ctx.prior_companion
    return prior is not None and prior.intent != INTENT and is_cross_promotion_offer(prior.content)


def retract_rejected_offer(ctx: HandlerContext) -> RouteResult | None:
    """An outright rejection of an offer to remember ("never mind") retracts the held fact;
    anything else unrelated (a question, a project fact) leaves the offer held."""
    held = offered_held(ctx)
    if held is None or not is_rejection(ctx.message):
        return None
    return reject_offer(ctx, held)


def keep_in_project(ctx: HandlerContext, held: Assertion) -> RouteResult:
    """ "No, just this project" after an offer: the fact becomes the project's knowledge (held,
    stated by the operator) and leaves personal memory."""
    assert ctx.project is not None
    retracted = repo.set_force(
        ctx.session,
        held.id,
        NormativeForce.RETRACTED,
        "Operator kept it to one project",
        by=HistoryActor.OPERATOR,
    )
    note = repo.add_assertion(ctx.session, ctx.project.id, held.content, ActorKind.OPERATOR)
    return RouteResult(
        intent="general_conversation",
        operation_data={
            "action": "kept_in_project",
            "knowledge": note.content,
            "assertion_display_number": note.display_number,
            "retracted_personal_number": retracted.display_number,
        },
        changes=(MemoryChange.of(retracted, NormativeForce.HELD), MemoryChange.of(note, None)),
    )
