"""Route a classified intent to its handler."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.orm import Session

from pipeline.actions import Action
from pipeline.domain import HistoryActor, NormativeForce, RouteResult
from pipeline.intents import multi, restore
from pipeline.intents.acts import route_acts
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Refused
from pipeline.intents.spec import Handler
from pipeline.intents.taxonomy import INTENTS, leaves_pending, outcome_of
from pipeline.intents.writes import apply
from pipeline.memory.matching import match_forget
from pipeline.memory.relations import link_changes
from pipeline.reading import Relation
from pipeline.store import assertions as repo

# Each live intent's handler, as its module declares it (pipeline/intents/spec.py).
HANDLERS: dict[str, Handler] = {
    name: spec.handler for name, spec in INTENTS.items() if spec.live and spec.handler
}


def _subject(intent: str) -> str:
    """The parameter naming what a message of `intent` is about ("" when it has none)."""
    spec = INTENTS.get(intent)
    return spec.subject if spec is not None else ""


def _as(ctx: HandlerContext, intent: str, description: str = "") -> HandlerContext:
    """The context re-read as `intent`, its description taken from the original parameter."""
    old = ctx.classified
    subject = _subject(old.intent)
    text = description or (old.params.get(subject, "") if subject else "") or ctx.message
    params = {_subject(intent): text} if _subject(intent) else {}
    classified = old.model_copy(update={"intent": intent, "params": params})
    return replace(ctx, classified=classified)


def _lives_in(ctx: HandlerContext, description: str) -> str | None:
    """Which store holds what a forget request describes, when only one of them does."""
    if ctx.project is None or ctx.person.personal_engagement_id is None:
        return None
    personal = repo.list_assertions(
        ctx.session, ctx.person.personal_engagement_id, [NormativeForce.COMMITTED]
    )
    notes = repo.list_assertions(
        ctx.session, ctx.project.id, [NormativeForce.HELD, NormativeForce.COMMITTED]
    )
    in_personal = match_forget(description, personal, ctx.stop_words).action != "no_match"
    in_notes = match_forget(description, notes, ctx.stop_words).action != "no_match"
    if in_personal != in_notes:
        return "forget_about_me" if in_personal else "retract_knowledge"
    return None


def _prior_action(ctx: HandlerContext) -> Action | None:
    """What the previous companion turn did, read through its intent's outcome model."""
    outcome = outcome_of(ctx.prior_companion)
    return outcome.action if outcome is not None else None


def _redirected(ctx: HandlerContext) -> HandlerContext:
    """The context re-read for the handler that owns what was pending or what is described:
    decided from the typed reading and stored state, never from the message's wording."""
    name = ctx.classified.intent
    prior = ctx.prior_companion
    reading = ctx.classified.reading
    answers = reading is not None and reading.relation is not Relation.UNRELATED
    if answers and prior is not None and leaves_pending(prior) and name != prior.intent:
        # "Yes" / "no, keep it" / "no, where I live" / "the second one" answers what was just
        # offered or asked, whatever intent the classifier gave the message itself.
        assert reading is not None and prior.intent is not None
        return _as(ctx, prior.intent, reading.corrected)
    if name in ("remember_about_me", "add_knowledge") and ctx.classified.question and not answers:
        # a question never stores a fact: it is answered, from memory when memory answers it
        return _as(ctx, "general_conversation")
    if name == "retract_knowledge" and ctx.project is None:
        return _as(ctx, "forget_about_me")  # outside a project only personal facts exist
    if name in ("retract_knowledge", "forget_about_me") and not ctx.classified.restore:
        described = ctx.param(_subject(name))
        elsewhere = _lives_in(ctx, described) if described else None
        if elsewhere is not None and elsewhere != name:
            return _as(ctx, elsewhere, described)
    return ctx


def route(ctx: HandlerContext) -> RouteResult:
    """Decide the turn: each act of the message once, in order, by its intent's handler, which
    reads and records its writes in `ctx.writes` (project-only intents outside a project change
    nothing). Nothing is stored until `apply_decision`."""
    return route_acts(ctx, _route_act)


def _route_act(ctx: HandlerContext) -> RouteResult:
    answered = multi.answer_offer(ctx)  # a reply to several facts offered at once
    return answered if answered is not None else _handled(_redirected(ctx))


def apply_decision(session: Session, ctx: HandlerContext, result: RouteResult) -> None:
    """Store what `route` decided, once, in the caller's write transaction; a personal fact
    the turn left committed is related to its nearest facts (the companion's own doing)."""
    apply(session, ctx.decided)
    personal_id = ctx.person.personal_engagement_id
    link_changes(session, personal_id, result.changes, ctx.embedder, by=HistoryActor.COMPANION)


def _handled(ctx: HandlerContext) -> RouteResult:
    name = ctx.classified.intent
    spec = INTENTS[name]
    assert spec.handler is not None  # every spec declares one (stubs: handle_stub)
    if not spec.live:
        return spec.handler(ctx)
    if ctx.classified.restore and (spec.writes or _prior_action(ctx) is Action.RETRACTED):
        return restore.handle_restore(ctx, name)
    if spec.needs_project and ctx.project is None:
        return Refused(error="needs_project").routed(name)
    return spec.handler(ctx)
