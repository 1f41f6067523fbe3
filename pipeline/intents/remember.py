"""remember_about_me: held -> committed on confirmation, refined, or retracted on rejection."""

from __future__ import annotations

from pipeline.domain import ActorKind, Assertion, MemoryChange, NormativeForce, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.facts import clean_fact, related_facts, same_fact
from pipeline.store import assertions as repo

INTENT = "remember_about_me"


def _change(a: Assertion, before: NormativeForce | None) -> MemoryChange:
    return MemoryChange(
        engagement_id=a.engagement_id,
        display_number=a.display_number,
        content=a.content,
        before=before,
        after=a.force,
    )


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


def handle_remember(ctx: HandlerContext) -> RouteResult:
    """Hold a new personal fact, or commit / refine the one offered on the previous turn."""
    personal_id = ctx.person.personal_engagement_id
    if personal_id is None:
        return RouteResult(intent=INTENT, operation_data={"error": "no_personal_engagement"})
    fact = clean_fact(ctx.param("personal_fact"))
    held = offered_held(ctx)
    if held is not None and (not fact or related_facts(fact, held.content)):
        if not fact or same_fact(fact, held.content):
            committed = repo.set_force(ctx.session, held.id, NormativeForce.COMMITTED)
            return RouteResult(
                intent=INTENT,
                operation_data={
                    "action": "committed",
                    "personal_fact": committed.content,
                    "assertion_display_number": committed.display_number,
                },
                changes=(_change(committed, NormativeForce.HELD),),
            )
        refined = repo.amend_content(ctx.session, held.id, fact)
        return RouteResult(
            intent=INTENT,
            operation_data={
                "action": "refined",
                "personal_fact": refined.content,
                "previous_fact": held.content,
                "assertion_display_number": refined.display_number,
            },
            changes=(_change(refined, NormativeForce.HELD),),
        )
    if not fact:
        return RouteResult(intent=INTENT, operation_data={"error": "no_personal_fact"})
    known = repo.find_live(ctx.session, personal_id, fact)
    if known is not None:  # said again (a retry, a resend): the same fact, not a second copy
        return RouteResult(
            intent=INTENT,
            operation_data={
                "action": known.force.value,
                "personal_fact": known.content,
                "assertion_display_number": known.display_number,
            },
        )
    created = repo.add_assertion(ctx.session, personal_id, fact, ActorKind.COMPANION)
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": "held",
            "personal_fact": created.content,
            "assertion_display_number": created.display_number,
        },
        changes=(_change(created, None),),
    )


def retract_rejected_offer(ctx: HandlerContext) -> RouteResult | None:
    """After an offer to remember, a reply classified as general conversation rejects it."""
    held = offered_held(ctx)
    if held is None:
        return None
    retracted = repo.set_force(
        ctx.session, held.id, NormativeForce.RETRACTED, "Operator declined the offer to remember it"
    )
    return RouteResult(
        intent="general_conversation",
        operation_data={
            "action": "rejected",
            "retracted_fact": retracted.content,
            "assertion_display_number": retracted.display_number,
        },
        changes=(_change(retracted, NormativeForce.HELD),),
    )
