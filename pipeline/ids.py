"""The range of every stored id and number: what a 64-bit signed column can hold.

SQLite's INTEGER and PostgreSQL's BIGINT stop at 2**63 - 1; a larger Python int makes the
driver raise OverflowError instead of finding nothing. Every command and MCP tool that takes an
id or a display number checks it against this range first (pipeline/cli/params.py,
pipeline/mcp/server.py), so an id that cannot exist is "not found" in one line.
"""

from __future__ import annotations

MIN_ID = 1
MAX_ID = 2**63 - 1


def in_range(value: int) -> bool:
    """Whether the value can be a stored id (or a display number)."""
    return MIN_ID <= value <= MAX_ID
