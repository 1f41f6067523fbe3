"""The personal-memory block: committed personal assertions within a character budget."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.config import MEMORY_BUDGET_CHARS
from pipeline.memory.relative_time import relative_time
from pipeline.store.assertions import committed_page

HEADER = "PERSONAL MEMORY\nThings you've told me about yourself:"
ELLIPSIS = "…"
# The shortest possible bullet ("\n- x (noted just now)") is 21 characters, so no block within
# budget holds more than this many: the work per turn is bounded whatever is stored.
_MAX_ROWS = MEMORY_BUDGET_CHARS // 21 + 1
_FIRST_PAGE = 32


def format_block(
    memories: Iterable[tuple[str, datetime]], now: datetime, budget: int = MEMORY_BUDGET_CHARS
) -> str:
    """Format (content, created_at) pairs, newest first, into the block within the budget."""
    block = HEADER
    count = 0
    for content, created in memories:
        suffix = f" (noted {relative_time(created, now)})"
        bullet = f"\n- {content}{suffix}"
        if len(block) + len(bullet) <= budget:
            block += bullet
            count += 1
            continue
        if count == 0:
            room = budget - len(block) - len("\n- ") - len(suffix) - len(ELLIPSIS)
            if room > 0:
                block += f"\n- {content[:room]}{ELLIPSIS}{suffix}"
                count += 1
        break
    return block if count else ""


def load_personal_memory(
    session: Session | Connection,
    personal_engagement_id: int,
    now: datetime | None = None,
) -> str:
    """The person's committed personal assertions as a prompt block ("" when none)."""
    return format_block(_newest_first(session, personal_engagement_id), now or utcnow())


def _newest_first(
    session: Session | Connection, engagement_id: int
) -> Iterator[tuple[str, datetime]]:
    """Committed memories newest first, fetched a page at a time as the block needs them."""
    offset, size = 0, _FIRST_PAGE
    while offset < _MAX_ROWS:
        page = committed_page(session, engagement_id, min(size, _MAX_ROWS - offset), offset)
        yield from page
        if len(page) < size:
            return
        offset += len(page)
        size *= 2
