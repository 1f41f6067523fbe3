"""The stub intents: planned capabilities the companion declines politely for now."""

from __future__ import annotations

from typing import ClassVar

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Outcome
from pipeline.intents.spec import INTENTS, IntentSpec


class NotAvailable(Outcome):
    """A stub intent's outcome, under the stub's own name: nothing was done."""

    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.NOT_AVAILABLE})

    capability: str


def handle_stub(ctx: HandlerContext) -> RouteResult:
    """A capability that is planned but not available yet."""
    name = ctx.classified.intent
    outcome = NotAvailable(action=Action.NOT_AVAILABLE, capability=INTENTS[name].summary)
    return RouteResult(intent=name, operation_data=outcome.dump())


def _stub(name: str, params: tuple[str, ...], summary: str) -> IntentSpec:
    return IntentSpec(name, False, params, summary, handler=handle_stub, outcome=NotAvailable)


SPECS = (
    _stub("set_reminder", ("reminder", "when"), "set a reminder"),
    _stub("web_search", ("query",), "look something up on the web"),
    _stub("share_project", ("recipient",), "share a project with someone"),
    _stub("export_project", ("format",), "export a project's notes to a file"),
)
