"""The MCP server (the official `mcp` SDK's MCPServer): specification 003's tools for one
person. `converse mcp --person NAME` runs it over stdio (for a desktop client) or streamable
HTTP (`--transport http`, loopback by default)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from pipeline.categories import CONVERSATION_READER
from pipeline.conversation_models import Conversation, Memory, MemoryEntity, Preview
from pipeline.conversations.memory_search import MemoryHit
from pipeline.conversations.recall import Explanation
from pipeline.errors import ConverseError
from pipeline.ids import MAX_ID, MIN_ID
from pipeline.mcp import tools
from pipeline.mcp.tools import MAX_LIMIT, ArchiveTurn, ContextType, Person, ReasoningContext
from pipeline.memory.query import DEFAULT_BUDGET_TOKENS, DEFAULT_TOP_K, MAX_TOP_K, QueryResult

P = ParamSpec("P")
R = TypeVar("R")

# The range every stored id has (pipeline/ids.py): past it the driver would overflow.
ConversationId = Annotated[int, Field(description="The conversation's id.", ge=MIN_ID, le=MAX_ID)]
MemoryId = Annotated[int, Field(description="The memory's id.", ge=MIN_ID, le=MAX_ID)]
TurnId = Annotated[
    int, Field(description="The id of one of the person's messages.", ge=MIN_ID, le=MAX_ID)
]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT)]


def _answers(func: Callable[P, R]) -> Callable[P, R]:
    """A pipeline error reaches the client as the tool's error, in the CLI's words."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ConverseError as exc:
            raise ToolError(exc.one_line()) from exc

    return wrapper


def build_server(me: Person, name: str) -> MCPServer:
    """A server whose every tool reads and writes `me`'s data only."""
    server = MCPServer(
        name="converse",
        instructions=(
            f"Conversation lifecycle and memories of {name}: close a conversation to extract "
            "a memory, preview and confirm it, search memories, see open threads."
        ),
    )
    _lifecycle_tools(server, me)
    _memory_tools(server, me)
    _reading_tools(server, me)
    return server


def _lifecycle_tools(server: MCPServer, me: Person) -> None:
    """The conversation's lifecycle: the open conversation, closing it, its memory's review."""

    @server.tool()
    @_answers
    def get_active_conversation() -> Conversation | None:
        """The currently active conversation, if any."""
        return tools.active(me)

    @server.tool()
    @_answers
    def close_conversation(conversation_id: ConversationId) -> Preview:
        """Close a conversation and extract a draft memory (entities, narrative, state
        changes, suggested destination) for review; nothing is kept until confirmed."""
        return tools.close(me, conversation_id)

    @server.tool()
    @_answers
    def get_memory_preview(conversation_id: ConversationId) -> Preview:
        """The extracted draft memory of a conversation being closed, before confirming."""
        return tools.preview(me, conversation_id)

    @server.tool()
    @_answers
    def confirm_memory(
        memory_id: MemoryId,
        destination: Annotated[
            str | None, Field(description="A project's name, or 'Your Story'; empty keeps it.")
        ] = None,
        edited_narrative: Annotated[
            str | None, Field(description="A corrected narrative; the extracted one is kept.")
        ] = None,
    ) -> list[Memory]:
        """Keep a draft memory (optionally redirected or edited) and archive its conversation."""
        return tools.confirm(me, memory_id, destination, edited_narrative)

    @server.tool()
    @_answers
    def resume_conversation(conversation_id: ConversationId) -> Conversation:
        """Cancel closing: the conversation is active again and its drafts are dropped."""
        return tools.resume(me, conversation_id)


def _memory_tools(server: MCPServer, me: Person) -> None:
    """Searching and querying memories."""

    @server.tool()
    @_answers
    def search_memories(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        destination: Annotated[str | None, Field(description="Only this project.")] = None,
        your_story_only: bool = False,
        limit: Limit = 10,
    ) -> list[MemoryHit]:
        """Hybrid (meaning + keywords + recency) search across confirmed memories."""
        return tools.search(me, query, destination, your_story_only, limit)

    @server.tool()
    @_answers
    def query_memory(
        query: Annotated[
            str, Field(max_length=2000, description="Rank by meaning; empty: newest first.")
        ] = "",
        agent: Annotated[
            str, Field(description="The reader whose category allowlist applies.")
        ] = CONVERSATION_READER,
        categories: Annotated[list[str] | None, Field(description="Only these categories.")] = None,
        pinned: bool | None = None,
        importance_min: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        importance_max: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        updated_after: Annotated[
            datetime | None, Field(description="ISO 8601, with a zone.")
        ] = None,
        updated_before: Annotated[
            datetime | None, Field(description="ISO 8601, with a zone.")
        ] = None,
        top_k: Annotated[int, Field(ge=1, le=MAX_TOP_K)] = DEFAULT_TOP_K,
        threshold: Annotated[float | None, Field(ge=-1.0, le=1.0)] = None,
        mode: Literal["bullets", "full"] = "bullets",
        budget_tokens: Annotated[int, Field(ge=1, le=100_000)] = DEFAULT_BUDGET_TOKENS,
    ) -> QueryResult:
        """memory.query: the person's facts and notes under these filters, as bullets or full
        records within a token budget; a category outside the reader's allowlist is an error."""
        asked = {
            "query": query,
            "agent": agent,
            "categories": tuple(categories) if categories is not None else None,
            "pinned": pinned,
            "importance_min": importance_min,
            "importance_max": importance_max,
            "updated_after": updated_after,
            "updated_before": updated_before,
            "top_k": top_k,
            "mode": mode,
            "budget_tokens": budget_tokens,
        }
        if threshold is not None:
            asked["threshold"] = threshold
        return tools.query(me, asked)


def _reading_tools(server: MCPServer, me: Person) -> None:
    """Open threads, the story so far, the archive, editing a memory, reasoning context and what a
    classification was shown."""

    @server.tool()
    @_answers
    def get_open_threads(
        entity_type: Annotated[
            str | None, Field(description="tasks, waiting_on or questions_opened")
        ] = None,
        destination: Annotated[str | None, Field(description="Only this project.")] = None,
    ) -> list[MemoryEntity]:
        """Unresolved tasks, waiting-ons and open questions across confirmed memories."""
        return tools.open_threads(me, entity_type, destination)

    @server.tool()
    @_answers
    def get_your_story(limit: Limit = 20, offset: Annotated[int, Field(ge=0)] = 0) -> list[Memory]:
        """Recent memories of Your Story, newest first."""
        return tools.your_story(me, limit, offset)

    @server.tool()
    @_answers
    def get_conversation_archive(conversation_id: ConversationId) -> list[ArchiveTurn]:
        """A conversation's transcript, oldest turn first."""
        return tools.archive(me, conversation_id)

    @server.tool()
    @_answers
    def edit_memory(
        memory_id: MemoryId, narrative: Annotated[str, Field(min_length=1, max_length=2000)]
    ) -> Memory:
        """Replace a memory's narrative (draft or kept); the extracted one is kept beside it."""
        return tools.edit(me, memory_id, narrative)

    @server.tool()
    @_answers
    def get_reasoning_context(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        context_type: ContextType = "classification",
        include_active_entities: bool = True,
        top_k: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> ReasoningContext:
        """The memories and open threads relevant to a request, and the text a prompt would
        carry for them."""
        return tools.reasoning_context(me, query, context_type, include_active_entities, top_k)

    @server.tool()
    @_answers
    def explain_classification(
        turn_id: TurnId,
    ) -> Explanation:
        """Which memories a message's classification was shown, with scores and reasons."""
        return tools.explain(me, turn_id)
