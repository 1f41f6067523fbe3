"""The Claude providers: the anthropic SDK's Messages API for classifying and replying.

Settings come from options, then the environment (see `settings.ENV_VARS`); the API key is
required and is never logged. The SDK takes about a second to import, so the names that need
it load on first use: reading settings (as every `converse` command does) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports
from pipeline.providers.claude.settings import ENV_VARS, ClaudeSettings

if TYPE_CHECKING:
    from pipeline.providers.claude.batches import BatchClient, BatchResult, BatchStatus, chunks
    from pipeline.providers.claude.budget import Budget, BudgetGuard
    from pipeline.providers.claude.caching import engages
    from pipeline.providers.claude.calls import CallFailed
    from pipeline.providers.claude.classifier import TOOL_NAME, ClaudeClassifier, tool_definition
    from pipeline.providers.claude.client import claude_providers, make_client
    from pipeline.providers.claude.models import ModelCaps, caps_of
    from pipeline.providers.claude.prices import (
        PRICES_SOURCE,
        PRICES_VERSION,
        cost,
        dollars,
        one_hour_writes,
        shown_cost,
        total_cost,
    )
    from pipeline.providers.claude.responder import ClaudeResponder
    from pipeline.providers.claude.retries import requested_wait, retryable
    from pipeline.providers.claude.structured import structured_call
    from pipeline.providers.claude.wire import PROMPTS_HEADER, parse_prompts_header

# Each name's module; prices, models and caching need no SDK (a report prices rows with them).
_LAZY = {
    "BatchClient": ".batches",
    "BatchResult": ".batches",
    "BatchStatus": ".batches",
    "chunks": ".batches",
    "Budget": ".budget",
    "BudgetGuard": ".budget",
    "engages": ".caching",
    "CallFailed": ".calls",
    "ModelCaps": ".models",
    "caps_of": ".models",
    "PRICES_SOURCE": ".prices",
    "PRICES_VERSION": ".prices",
    "cost": ".prices",
    "dollars": ".prices",
    "one_hour_writes": ".prices",
    "shown_cost": ".prices",
    "total_cost": ".prices",
    "requested_wait": ".retries",
    "retryable": ".retries",
    "structured_call": ".structured",
    "TOOL_NAME": ".classifier",
    "ClaudeClassifier": ".classifier",
    "tool_definition": ".classifier",
    "claude_providers": ".client",
    "make_client": ".client",
    "ClaudeResponder": ".responder",
    "PROMPTS_HEADER": ".wire",
    "parse_prompts_header": ".wire",
}

__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "ENV_VARS",
    "PRICES_SOURCE",
    "PRICES_VERSION",
    "PROMPTS_HEADER",
    "TOOL_NAME",
    "BatchClient",
    "BatchResult",
    "BatchStatus",
    "Budget",
    "BudgetGuard",
    "CallFailed",
    "ClaudeClassifier",
    "ClaudeResponder",
    "ClaudeSettings",
    "ModelCaps",
    "caps_of",
    "chunks",
    "claude_providers",
    "cost",
    "dollars",
    "engages",
    "make_client",
    "one_hour_writes",
    "parse_prompts_header",
    "requested_wait",
    "retryable",
    "shown_cost",
    "structured_call",
    "tool_definition",
    "total_cost",
]
