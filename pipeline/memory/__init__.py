"""Personal memory: the prompt block, relative time, and matching."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.memory.block import HEADER, format_block, load_personal_memory
    from pipeline.memory.matching import Match, match_forget
    from pipeline.memory.relative_time import relative_time

_HOMES = {
    "HEADER": "block",
    "format_block": "block",
    "load_personal_memory": "block",
    "Match": "matching",
    "match_forget": "matching",
    "relative_time": "relative_time",
}
__all__ = [
    "HEADER",
    "Match",
    "format_block",
    "load_personal_memory",
    "match_forget",
    "relative_time",
]


def __getattr__(name: str) -> Any:
    # Loaded on first use: `converse memory list` needs relative_time without the store.
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f"pipeline.memory.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'pipeline.memory' has no attribute {name!r}")
