"""forget_about_me: match -> confirm -> reversible retraction."""

from __future__ import annotations

from typing import ClassVar

from pipeline.actions import Action
from pipeline.domain import Assertion, HistoryActor, MemoryChange, NormativeForce, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.confirmation import (
    answer_to_confirmation,
    corrected_description,
    pick_candidate,
)
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Item, Refused, RetractionOutcome
from pipeline.intents.remember import RememberOutcome, offered_held, reject_offer
from pipeline.intents.spec import IntentSpec
from pipeline.memory.matching import Match, match_forget
from pipeline.memory.search import semantic_forget
from pipeline.reading import Relation
from pipeline.store import assertions as repo

INTENT = "forget_about_me"


class ForgetOutcome(RetractionOutcome):
    """forget_about_me: a question whether to forget the fact matched, and its answer."""

    INTENT: ClassVar[str] = INTENT

    person: str | None = None  # the erase command the reply suggests names the person
    retracted_fact: str | None = None
    rationale: str | None = None
    forget_description: str | None = None
    nothing_described: bool = False
    stored_count: int | None = None


def _candidate(a: Assertion) -> Item:
    return Item(content=a.content, display_number=a.display_number)


def _confirm(a: Assertion) -> RouteResult:
    return ForgetOutcome(
        action=Action.CONFIRM_RETRACTION,
        matched_fact=a.content,
        matched_assertion_id=a.id,
        assertion_display_number=a.display_number,
    ).routed()


def _retract(ctx: HandlerContext, assertion_id: int) -> RouteResult | None:
    try:
        current = repo.get_assertion(ctx.session, assertion_id)
    except NotFound:  # erased or set aside by the lifecycle sweep since it was matched
        return None
    if current.force is not NormativeForce.COMMITTED:
        return None
    rationale = f"Operator asked to forget it: {ctx.param('forget_description') or 'confirmed'}"
    done = ctx.decided.set_force(
        assertion_id, NormativeForce.RETRACTED, rationale, by=HistoryActor.OPERATOR
    )
    return ForgetOutcome(
        action=Action.RETRACTED,
        person=ctx.person.name,
        retracted_fact=done.content,
        assertion_display_number=done.display_number,
        rationale=rationale,
    ).routed([MemoryChange.of(done, NormativeForce.COMMITTED)])


def _semantic(
    ctx: HandlerContext, description: str, committed: list[Assertion], match: Match
) -> Match:
    """Keywords first (docs/memory.md); meaning breaks their ties and is the fallback when
    they find nothing ("forget the seafood thing" -> "allergic to all shellfish")."""
    if ctx.embedder is None or match.action == "confirm_retraction":
        return match
    if match.action == "ambiguous":
        return semantic_forget(ctx.session, description, match.assertions, ctx.embedder, tie=True)
    return semantic_forget(ctx.session, description, committed, ctx.embedder, tie=False)


def _just_committed(ctx: HandlerContext, personal_id: int) -> Assertion | None:
    """The personal fact the previous companion turn committed, if it is still committed."""
    prior = RememberOutcome.of(ctx.prior_companion)
    number = prior.assertion_display_number if prior is not None else None
    if prior is None or prior.action is not Action.COMMITTED or number is None:
        return None
    try:
        fact = repo.get_by_number(ctx.session, personal_id, number)
    except NotFound:
        return None
    return fact if fact.force is NormativeForce.COMMITTED else None


def _kept(description: str) -> RouteResult:
    return ForgetOutcome(action=Action.KEPT, forget_description=description).routed()


def handle_forget(ctx: HandlerContext) -> RouteResult:
    """Retract what the previous turn matched when confirmed; otherwise match the description."""
    personal_id = ctx.person.personal_engagement_id
    if personal_id is None:
        return Refused(error="no_personal_engagement").routed(INTENT)
    reading = ctx.classified.reading
    rejects = reading is not None and reading.relation is Relation.REJECT
    held = offered_held(ctx)
    if held is not None and rejects:  # "forget it" right after an offer
        return reject_offer(ctx, held)
    prior = ForgetOutcome.of(ctx.prior_companion)
    asked = prior.action if prior is not None else None
    description = ctx.param("forget_description")
    if prior is not None and asked is Action.CONFIRM_RETRACTION:
        answered = answer_to_confirmation(
            ctx,
            prior,
            description,
            retract=lambda i: _retract(ctx, i),
            confirm=_confirm,
            kept=_kept,
        )
        if answered is not None:
            return answered
        description = corrected_description(ctx, description)
    if prior is not None and asked is Action.AMBIGUOUS:
        number = pick_candidate(reading, description, prior.candidates, ctx.stop_words)
        if number is not None:
            return _confirm(repo.get_by_number(ctx.session, personal_id, number))
    kept_just_now = None if ctx.keywords(description) else _just_committed(ctx, personal_id)
    if kept_just_now is not None:
        # "forget that" right after "Got it, I'll remember that": the description names
        # nothing, and the fact the companion has just kept is the one meant; asked first.
        return _confirm(kept_just_now)
    if rejects and not ctx.keywords(description):
        # "Forget it" with nothing pending means "never mind", not a request to match "it".
        if asked in (Action.CONFIRM_RETRACTION, Action.AMBIGUOUS):
            return _kept(description)
        return ForgetOutcome(
            action=Action.NO_MATCH, forget_description=description, nothing_described=True
        ).routed()
    committed = repo.list_assertions(ctx.session, personal_id, [NormativeForce.COMMITTED])
    match = _semantic(
        ctx, description, committed, match_forget(description, committed, ctx.stop_words)
    )
    if match.action == "confirm_retraction":
        return _confirm(match.assertions[0])
    if match.action == "ambiguous":
        return ForgetOutcome(
            action=Action.AMBIGUOUS,
            forget_description=description,
            candidates=[_candidate(a) for a in match.assertions],
        ).routed()
    return ForgetOutcome(
        action=Action.NO_MATCH, forget_description=description, stored_count=len(committed)
    ).routed()


SPECS = (
    IntentSpec(
        INTENT,
        True,
        ("forget_description",),
        "asks the companion to stop remembering something personal",
        offer="forget something personal you told me, once you confirm which one",
        pending=(Action.CONFIRM_RETRACTION, Action.AMBIGUOUS),
        handler=handle_forget,
        outcome=ForgetOutcome,
        subject="forget_description",
        writes=True,
    ),
)
