"""A scan for anything that should never be in a cassette: keys, auth headers, account ids."""

from __future__ import annotations

import re

# (what it is, pattern). Header names are matched as YAML keys, so prose that merely mentions
# "authorization" does not count.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an Anthropic API key", re.compile(r"sk-ant-[A-Za-z0-9_\-]{8,}")),
    ("an x-api-key header", re.compile(r"^\s*-?\s*['\"]?x-api-key['\"]?\s*:", re.I | re.M)),
    ("an authorization header", re.compile(r"^\s*-?\s*['\"]?authorization['\"]?\s*:", re.I | re.M)),
    ("a bearer token", re.compile(r"\bbearer\s+[A-Za-z0-9._~+/\-]{12,}", re.I)),
    ("an organisation id header", re.compile(r"anthropic-organization-id", re.I)),
    ("a cookie header", re.compile(r"^\s*-?\s*['\"]?(set-)?cookie['\"]?\s*:", re.I | re.M)),
)


def find_secrets(text: str) -> list[str]:
    """What secret-looking things `text` holds, by name (never the value itself)."""
    return [name for name, pattern in PATTERNS if pattern.search(text)]
