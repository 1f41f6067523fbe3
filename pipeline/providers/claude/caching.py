"""When Claude's prompt cache engages: the minimum cacheable prefix of each model.

A prefix marked with `cache_control` is cached only when it is at least the model's minimum
length; a shorter one is processed in full and both cache counters stay zero, with no error.
The table is the one on the prompt caching page of the Claude documentation
(https://platform.claude.com/docs/en/build-with-claude/prompt-caching, "Cache limitations",
read 2026-11-26). A model not listed gets the largest minimum in the table, so nothing here
claims caching a model might not do. No SDK import: `converse prompts` reads it at start-up.
"""

from __future__ import annotations

import math

TABLE_DATE = "2026-11-26"
TABLE_SOURCE = "https://platform.claude.com/docs/en/build-with-claude/prompt-caching"

# Model id prefix -> minimum cacheable prefix in tokens. Dated ids (claude-haiku-4-5-20251001)
# match their alias by prefix; the longest prefix wins.
MIN_CACHEABLE_TOKENS: dict[str, int] = {
    "claude-opus-4-6": 4096,
    "claude-opus-4-5": 4096,
    "claude-opus-4-1": 1024,
    "claude-opus-4": 1024,
    "claude-sonnet-4-6": 1024,
    "claude-sonnet-4-5": 1024,
    "claude-sonnet-4": 1024,
    "claude-3-7-sonnet": 1024,
    "claude-haiku-4-5": 4096,
    "claude-3-5-haiku": 2048,
    "claude-3-haiku": 2048,
}
UNKNOWN_MODEL_MIN = max(MIN_CACHEABLE_TOKENS.values())

# Offline token estimate: four characters a token (the loopback server uses the same rule).
CHARS_PER_TOKEN = 4


def min_cacheable(model: str) -> int:
    """The model's minimum cacheable prefix; the most conservative one for an unknown model."""
    matches = [prefix for prefix in MIN_CACHEABLE_TOKENS if model.startswith(prefix)]
    if not matches:
        return UNKNOWN_MODEL_MIN
    return MIN_CACHEABLE_TOKENS[max(matches, key=len)]


def known(model: str) -> bool:
    """Whether the table lists the model (else its minimum is the conservative default)."""
    return any(model.startswith(prefix) for prefix in MIN_CACHEABLE_TOKENS)


def estimate_tokens(text: str) -> int:
    """A token estimate at four characters a token; an estimate, not a count."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def engages(prefix_tokens: int, model: str) -> bool:
    """Whether a cached prefix of this length is written to (and read from) the cache."""
    return prefix_tokens >= min_cacheable(model)
