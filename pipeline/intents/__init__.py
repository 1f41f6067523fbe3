"""The intent taxonomy and one deterministic handler per intent."""

from pipeline.intents.context import HandlerContext
from pipeline.intents.router import HANDLERS, apply_decision, route
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, LIVE_INTENTS, STUB_INTENTS
from pipeline.intents.writes import StaleDecision, Writes

__all__ = [
    "FALLBACK_INTENT",
    "HANDLERS",
    "INTENTS",
    "LIVE_INTENTS",
    "STUB_INTENTS",
    "HandlerContext",
    "StaleDecision",
    "Writes",
    "apply_decision",
    "route",
]
