"""The intent taxonomy and one deterministic handler per intent."""

from pipeline.intents.context import HandlerContext
from pipeline.intents.router import HANDLERS, route
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, LIVE_INTENTS, STUB_INTENTS

__all__ = [
    "FALLBACK_INTENT",
    "HANDLERS",
    "INTENTS",
    "LIVE_INTENTS",
    "STUB_INTENTS",
    "HandlerContext",
    "route",
]
