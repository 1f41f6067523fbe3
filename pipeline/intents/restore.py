"""Putting back what was retracted, when the person asks ("put the irrigation note back")."""

from __future__ import annotations

import re

from pipeline.actions import Action
from pipeline.domain import Assertion, HistoryActor, MemoryChange, NormativeForce, RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.forget import ForgetOutcome
from pipeline.intents.knowledge import NoteRetractionOutcome
from pipeline.intents.outcome import Item, Refused, RetractionOutcome
from pipeline.memory.matching import Match, match_forget, match_loosely
from pipeline.store import assertions as repo


def _description(ctx: HandlerContext) -> str:
    for name in ("knowledge_description", "forget_description", "knowledge", "personal_fact"):
        if ctx.param(name):
            return ctx.param(name)
    return ctx.message


# The companion prints a personal fact as #N and a project note as notes#N (README): the
# person may name one the same way ("put #2 back").
_REFERENCE = re.compile(r"(?<![\w#])(notes)?#(\d{1,9})\b", re.IGNORECASE)


def _reference(ctx: HandlerContext) -> tuple[bool, int] | None:
    """(is a project note, display number) when the request names one by its number."""
    for text in (_description(ctx), ctx.message):
        found = _REFERENCE.search(text)
        if found:
            return bool(found.group(1)), int(found.group(2))
    return None


def _just_retracted(ctx: HandlerContext) -> tuple[str, int] | None:
    """The intent and display number the previous companion turn retracted, if it did."""
    for model in (ForgetOutcome, NoteRetractionOutcome):
        prior = model.of(ctx.prior_companion)
        if prior is None or prior.action is not Action.RETRACTED:
            continue
        number = prior.assertion_display_number
        if number is None and prior.item is not None:
            number = prior.item.display_number
        return (model.INTENT, number) if number is not None else None
    return None


def handle_restore(ctx: HandlerContext, intent: str) -> RouteResult:
    """Restore the one retracted assertion that matches: a project note in a project (held, to
    be settled again), else a personal fact (committed, as it was before it was forgotten).
    "Put that back" right after a retraction restores what was just retracted."""
    just = _just_retracted(ctx)
    reference = _reference(ctx)
    if reference is not None:
        intent = "retract_knowledge" if reference[0] else "forget_about_me"
        just = (intent, reference[1])
    elif just is not None and not ctx.keywords(_description(ctx)):
        intent = just[0]
    project = intent in ("retract_knowledge", "add_knowledge") and ctx.project is not None
    # The reply is written by the instruction that knows restoring: notes or personal facts.
    model: type[RetractionOutcome] = NoteRetractionOutcome if project else ForgetOutcome
    engagement_id = ctx.project.id if project and ctx.project else ctx.person.personal_engagement_id
    if engagement_id is None:
        return Refused(error="no_personal_engagement").routed(model.INTENT)
    retracted = repo.list_assertions(ctx.session, engagement_id, [NormativeForce.RETRACTED])
    if just is not None and (reference is not None or not ctx.keywords(_description(ctx))):
        retracted = [a for a in retracted if a.display_number == just[1]]
        match = (
            Match("confirm_retraction", tuple(retracted)) if retracted else Match("no_match", ())
        )
    else:
        match = match_forget(_description(ctx), retracted, ctx.stop_words)
        if match.action == "no_match":
            match = match_loosely(_description(ctx), retracted, ctx.stop_words)
    if match.action != "confirm_retraction":
        unclear = match.action == "ambiguous"
        return model(
            action=Action.RESTORE_UNCLEAR if unclear else Action.RESTORE_NO_MATCH,
            candidates=[_item(a) for a in match.assertions],
        ).routed()
    target = match.assertions[0]
    force = NormativeForce.HELD if project else NormativeForce.COMMITTED
    done = ctx.decided.set_force(target.id, force, by=HistoryActor.OPERATOR)
    return model(action=Action.RESTORED, item=_item(done)).routed(
        [MemoryChange.of(done, NormativeForce.RETRACTED)]
    )


def _item(a: Assertion) -> Item:
    return Item(display_number=a.display_number, content=a.content, force=a.force.value)
