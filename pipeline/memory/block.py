"""The personal-memory block: committed personal assertions within a character budget."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import NamedTuple

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
    return personal_memory(session, personal_engagement_id, now).text


class Block(NamedTuple):
    """The block, the ids of the assertions it shows, and those of them not marked used since
    the time asked about (the turn marks those)."""

    text: str
    shown: list[int]
    unmarked: list[int]


def personal_memory(
    session: Session | Connection,
    personal_engagement_id: int,
    now: datetime | None = None,
    marked_after: datetime | None = None,
) -> Block:
    """The block of the person's committed personal assertions ("" when none)."""
    now = now or utcnow()
    ids: list[int] = []
    unmarked: set[int] = set()
    memories = _newest_first(session, personal_engagement_id, ids, marked_after or now, unmarked)
    # Formatting reads one memory past the last it shows (the one that would cross the budget).
    block, count = _format(memories, now, MEMORY_BUDGET_CHARS)
    shown = ids[:count]
    return Block(block, shown, [i for i in shown if i in unmarked])


def _newest_first(
    session: Session | Connection,
    engagement_id: int,
    ids: list[int],
    marked_after: datetime,
    unmarked: set[int],
) -> Iterator[tuple[str, datetime]]:
    """Committed memories newest first, fetched a page at a time as the block needs them;
    the id of each one handed out is appended to `ids` (and to `unmarked` when it was not
    marked used since `marked_after`)."""
    offset, size = 0, _FIRST_PAGE
    while offset < _MAX_ROWS:
        limit = min(size, _MAX_ROWS - offset)
        page = committed_page(session, engagement_id, limit, offset, marked_after)
        for aid, content, created, marked in page:
            ids.append(aid)
            if not marked:
                unmarked.add(aid)
            yield content, created
        if len(page) < size:
            return
        offset += len(page)
        size *= 2
