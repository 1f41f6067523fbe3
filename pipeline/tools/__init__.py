"""Tools a responder may call: update_status (status notes) and search_memory (deep recall)."""

from pipeline.tools.specs import SEARCH_MEMORY, TOOLS, UPDATE_STATUS, ToolSpec
from pipeline.tools.toolbox import Toolbox, ToolCall, ToolResult

__all__ = [
    "SEARCH_MEMORY",
    "TOOLS",
    "UPDATE_STATUS",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Toolbox",
]
