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
    return _format(memories, now, budget)[0]


def _format(
    memories: Iterable[tuple[str, datetime]], now: datetime, budget: int
) -> tuple[str, int]:
    """The block and how many memories it shows."""
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
    return (block, count) if count else ("", 0)


def load_personal_memory(
    session: Session | Connection,
    personal_engagement_id: int,
    now: datetime | None = None,
) -> str:
    """The person's committed personal assertions as a prompt block ("" when none)."""
    return personal_memory(session, personal_engagement_id, now)[0]


def personal_memory(
    session: Session | Connection,
    personal_engagement_id: int,
    now: datetime | None = None,
) -> tuple[str, list[int]]:
    """The block, and the ids of the assertions it shows (the turn marks them used)."""
    ids: list[int] = []
    memories = _newest_first(session, personal_engagement_id, ids)
    # Formatting reads one memory past the last it shows (the one that would cross the budget).
    block, shown = _format(memories, now or utcnow(), MEMORY_BUDGET_CHARS)
    return block, ids[:shown]


def _newest_first(
    session: Session | Connection, engagement_id: int, ids: list[int]
) -> Iterator[tuple[str, datetime]]:
    """Committed memories newest first, fetched a page at a time as the block needs them;
    the id of each one handed out is appended to `ids`."""
    offset, size = 0, _FIRST_PAGE
    while offset < _MAX_ROWS:
        page = committed_page(session, engagement_id, min(size, _MAX_ROWS - offset), offset)
        for aid, content, created in page:
            ids.append(aid)
            yield content, created
        if len(page) < size:
            return
        offset += len(page)
        size *= 2
