"""The conversation lifecycle: one open conversation per person, closed deliberately into
memories the person reviews (docs/conversations.md)."""

from __future__ import annotations

from pipeline.conversations.compress import CompressionInput, compress
from pipeline.conversations.export import memories_markdown
from pipeline.conversations.greeting import Greeting, startup_greeting
from pipeline.conversations.lifecycle import (
    IDLE_INVITATION,
    attach_turns,
    get_active_conversation,
    get_conversation,
    get_conversation_archive,
    idle_observation,
    list_conversations,
    open_conversation,
    resume_conversation,
    set_paused,
    start_conversation,
)
from pipeline.conversations.review import (
    SplitPart,
    close_conversation,
    confirm_conversation,
    edit_memory,
    get_memory_preview,
    redirect_memory,
    split_memory,
)

__all__ = [
    "IDLE_INVITATION",
    "CompressionInput",
    "Greeting",
    "SplitPart",
    "attach_turns",
    "close_conversation",
    "compress",
    "confirm_conversation",
    "edit_memory",
    "get_active_conversation",
    "get_conversation",
    "get_conversation_archive",
    "get_memory_preview",
    "idle_observation",
    "list_conversations",
    "memories_markdown",
    "open_conversation",
    "redirect_memory",
    "resume_conversation",
    "set_paused",
    "split_memory",
    "start_conversation",
    "startup_greeting",
]
