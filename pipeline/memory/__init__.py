"""Personal memory: the prompt block, relative time, and matching."""

from pipeline.memory.block import HEADER, format_block, load_personal_memory
from pipeline.memory.matching import Match, match_forget
from pipeline.memory.relative_time import relative_time

__all__ = [
    "HEADER",
    "Match",
    "format_block",
    "load_personal_memory",
    "match_forget",
    "relative_time",
]
