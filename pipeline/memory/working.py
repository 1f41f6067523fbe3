"""Working memory: what was going on, summarised at compaction, kept for a while.

Stored as a document in specification 001's format — a title, `Updated:` and `Expires:` lines
in ISO 8601 UTC, a blank line, then the summary — truncated to a token budget (estimated at 4
characters a token). A document that is expired, or malformed in any way (a missing or
unreadable header, expiry before update, no summary), is ignored without error: working
memory is a convenience, never a reason for a turn to fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pipeline.clock import as_utc

TITLE = "# Working Memory"
CHARS_PER_TOKEN = 4
_ELLIPSIS = "…"


@dataclass(frozen=True)
class WorkingMemory:
    """A readable, unexpired working memory."""

    summary: str
    updated_at: datetime
    expires_at: datetime


def truncated(summary: str, budget_tokens: int) -> str:
    """The summary cut to the budget at a word boundary, marked with an ellipsis if cut."""
    limit = budget_tokens * CHARS_PER_TOKEN
    text = summary.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - len(_ELLIPSIS)]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip() + _ELLIPSIS


def document(summary: str, now: datetime, ttl_days: int, budget_tokens: int) -> str:
    """The stored form of a summary written now."""
    updated = as_utc(now).replace(microsecond=0)
    expires = updated + timedelta(days=ttl_days)
    return (
        f"{TITLE}\nUpdated: {_iso(updated)}\nExpires: {_iso(expires)}\n\n"
        f"{truncated(summary, budget_tokens)}\n"
    )


def readable(text: str | None, now: datetime) -> WorkingMemory | None:
    """The working memory in `text` if it is well formed and not expired at `now`."""
    if not text:
        return None
    head, _, body = text.partition("\n\n")
    lines = head.strip().splitlines()
    if len(lines) != 3 or lines[0].strip() != TITLE:
        return None
    updated = _header(lines[1], "Updated")
    expires = _header(lines[2], "Expires")
    summary = body.strip()
    if updated is None or expires is None or expires <= updated or not summary:
        return None
    if as_utc(now) >= expires:
        return None
    return WorkingMemory(summary, updated, expires)


def _header(line: str, name: str) -> datetime | None:
    prefix = f"{name}: "
    if not line.startswith(prefix):
        return None
    try:
        return as_utc(datetime.fromisoformat(line[len(prefix) :].strip().replace("Z", "+00:00")))
    except ValueError:
        return None


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")
