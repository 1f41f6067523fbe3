"""The Claude providers: the anthropic SDK's Messages API for classifying and replying.

Settings come from options, then the environment (see `settings.ENV_VARS`); the API key is
required and is never logged. The SDK takes about a second to import, so the names that need
it load on first use: reading settings (as every `converse` command does) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pipeline.providers.claude.settings import ENV_VARS, ClaudeSettings

if TYPE_CHECKING:
    from pipeline.providers.claude.budget import Budget, BudgetGuard
    from pipeline.providers.claude.caching import engages
    from pipeline.providers.claude.calls import CallFailed, create_message
    from pipeline.providers.claude.classifier import TOOL_NAME, ClaudeClassifier, tool_definition
    from pipeline.providers.claude.client import claude_providers, make_client
    from pipeline.providers.claude.models import ModelCaps, caps_of, classifier_shape, thinking_plan
    from pipeline.providers.claude.prices import (
        PRICES_SOURCE,
        PRICES_VERSION,
        cost,
        shown_cost,
        total_cost,
    )
    from pipeline.providers.claude.responder import ClaudeResponder
    from pipeline.providers.claude.retries import requested_wait, retryable
    from pipeline.providers.claude.wire import PROMPTS_HEADER, parse_prompts_header

# Each name's module; prices, models and caching need no SDK (a report prices rows with them).
_LAZY = {
    "Budget": "budget",
    "BudgetGuard": "budget",
    "engages": "caching",
    "CallFailed": "calls",
    "create_message": "calls",
    "ModelCaps": "models",
    "caps_of": "models",
    "classifier_shape": "models",
    "thinking_plan": "models",
    "PRICES_SOURCE": "prices",
    "PRICES_VERSION": "prices",
    "cost": "prices",
    "shown_cost": "prices",
    "total_cost": "prices",
    "requested_wait": "retries",
    "retryable": "retries",
    "TOOL_NAME": "classifier",
    "ClaudeClassifier": "classifier",
    "tool_definition": "classifier",
    "claude_providers": "client",
    "make_client": "client",
    "ClaudeResponder": "responder",
    "PROMPTS_HEADER": "wire",
    "parse_prompts_header": "wire",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "ENV_VARS",
    "PRICES_SOURCE",
    "PRICES_VERSION",
    "PROMPTS_HEADER",
    "TOOL_NAME",
    "Budget",
    "BudgetGuard",
    "CallFailed",
    "ClaudeClassifier",
    "ClaudeResponder",
    "ClaudeSettings",
    "ModelCaps",
    "caps_of",
    "classifier_shape",
    "claude_providers",
    "cost",
    "create_message",
    "engages",
    "make_client",
    "parse_prompts_header",
    "requested_wait",
    "retryable",
    "shown_cost",
    "thinking_plan",
    "tool_definition",
    "total_cost",
]
