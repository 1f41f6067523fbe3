"""Intents that change no memory: conversation, capabilities, and the stubs."""

from __future__ import annotations

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.recall import answer_from_memory
from pipeline.intents.remember import keep_in_project, offered_held, retract_rejected_offer
from pipeline.intents.taxonomy import INTENTS, LIVE_INTENTS


def handle_general_conversation(ctx: HandlerContext) -> RouteResult:
    """Nothing to store, unless the reply rejected an offer to remember.

    A classification that failed (and so fell back to conversation) is not a rejection:
    a broken model answer must leave what is stored untouched.
    """
    if ctx.classified.error:
        return RouteResult(intent="general_conversation", operation_data={"action": Action.NONE})
    held = offered_held(ctx)
    reading = ctx.classified.reading
    if held is not None and ctx.project is not None and reading and reading.project_only:
        return keep_in_project(ctx, held)
    rejected = retract_rejected_offer(ctx)
    if rejected is not None:
        return rejected
    recalled = answer_from_memory(ctx)
    if recalled is not None:
        return recalled
    return RouteResult(intent="general_conversation", operation_data={"action": Action.NONE})


def handle_describe_capabilities(_ctx: HandlerContext) -> RouteResult:
    """The live intents in plain words."""
    return RouteResult(
        intent="describe_capabilities",
        operation_data={
            "action": Action.DESCRIBED,
            "capabilities": [INTENTS[n].offer for n in LIVE_INTENTS if INTENTS[n].offer],
        },
    )


def handle_stub(ctx: HandlerContext) -> RouteResult:
    """A capability that is planned but not available yet."""
    name = ctx.classified.intent
    return RouteResult(
        intent=name,
        operation_data={"action": Action.NOT_AVAILABLE, "capability": INTENTS[name].summary},
    )
