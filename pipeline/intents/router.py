"""Route a classified intent to its handler."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.domain import RouteResult
from pipeline.intents import conversation, forget, knowledge, remember
from pipeline.intents.context import HandlerContext
from pipeline.intents.taxonomy import INTENTS

Handler = Callable[[HandlerContext], RouteResult]

HANDLERS: dict[str, Handler] = {
    "general_conversation": conversation.handle_general_conversation,
    "add_knowledge": knowledge.handle_add_knowledge,
    "ask_about_past_input": knowledge.handle_ask_about_past_input,
    "list_knowledge": knowledge.handle_list_knowledge,
    "commit_knowledge": knowledge.handle_commit_knowledge,
    "retract_knowledge": knowledge.handle_retract_knowledge,
    "describe_capabilities": conversation.handle_describe_capabilities,
    "remember_about_me": remember.handle_remember,
    "forget_about_me": forget.handle_forget,
}


def route(ctx: HandlerContext) -> RouteResult:
    """Run the intent's handler; project-only intents outside a project change nothing."""
    name = ctx.classified.intent
    spec = INTENTS[name]
    if not spec.live:
        return conversation.handle_stub(ctx)
    if spec.needs_project and ctx.project is None:
        return RouteResult(intent=name, operation_data={"error": "needs_project"})
    return HANDLERS[name](ctx)
