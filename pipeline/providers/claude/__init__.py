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
    from pipeline.providers.claude.calls import CallFailed
    from pipeline.providers.claude.classifier import TOOL_NAME, ClaudeClassifier, tool_definition
    from pipeline.providers.claude.client import claude_providers, make_client
    from pipeline.providers.claude.responder import ClaudeResponder
    from pipeline.providers.claude.structured import structured_call
    from pipeline.providers.claude.wire import PROMPTS_HEADER, parse_prompts_header

_LAZY = {
    "CallFailed": ".calls",
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
    "PROMPTS_HEADER",
    "TOOL_NAME",
    "CallFailed",
    "ClaudeClassifier",
    "ClaudeResponder",
    "ClaudeSettings",
    "claude_providers",
    "make_client",
    "parse_prompts_header",
    "structured_call",
    "tool_definition",
]
