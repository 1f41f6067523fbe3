"""Personal memory: the prompt block, relative time, and matching."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.memory.block import HEADER, format_block, load_personal_memory
    from pipeline.memory.matching import Match, match_forget
    from pipeline.memory.relative_time import relative_time

# Loaded on first use: `converse memory list` needs relative_time without the store.
_HOMES = {
    "HEADER": ".block",
    "format_block": ".block",
    "load_personal_memory": ".block",
    "Match": ".matching",
    "match_forget": ".matching",
    "relative_time": ".relative_time",
}
__all__ = [
    "HEADER",
    "Match",
    "format_block",
    "load_personal_memory",
    "match_forget",
    "relative_time",
]


__getattr__ = lazy_exports(__name__, _HOMES)
