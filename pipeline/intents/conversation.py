"""Intents that change no memory: general_conversation and describe_capabilities."""

from __future__ import annotations

from typing import ClassVar

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import ConversationOutcome, Outcome
from pipeline.intents.recall import answer_from_memory
from pipeline.intents.remember import keep_in_project, offered_held, retract_rejected_offer
from pipeline.intents.spec import INTENTS, IntentSpec


def handle_general_conversation(ctx: HandlerContext) -> RouteResult:
    """Nothing to store, unless the reply rejected an offer to remember.

    A classification that failed (and so fell back to conversation) is not a rejection:
    a broken model answer must leave what is stored untouched.
    """
    if ctx.classified.error:
        return ConversationOutcome(action=Action.NONE).routed()
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
    return ConversationOutcome(action=Action.NONE).routed()


class CapabilitiesOutcome(Outcome):
    """describe_capabilities: what the live intents offer, in the person's words."""

    INTENT: ClassVar[str] = "describe_capabilities"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.DESCRIBED})

    capabilities: list[str]


def handle_describe_capabilities(_ctx: HandlerContext) -> RouteResult:
    """The live intents in plain words."""
    offers = [spec.offer for spec in INTENTS.values() if spec.live and spec.offer]
    return CapabilitiesOutcome(action=Action.DESCRIBED, capabilities=offers).routed()


SPECS = (
    IntentSpec(
        "general_conversation",
        True,
        (),
        "chat, questions and advice that ask nothing of memory; declining an offer; "
        "an outright rejection such as 'never mind'",
        offer="chat, answer questions and think things through with you",
        handler=handle_general_conversation,
        outcome=ConversationOutcome,
    ),
    IntentSpec(
        "describe_capabilities",
        True,
        (),
        "asks what the companion can do",
        handler=handle_describe_capabilities,
        outcome=CapabilitiesOutcome,
    ),
)
