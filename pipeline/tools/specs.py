"""The tools a responder may call, as data: name, description, and the JSON schema of the input.

Providers turn these into their own wire form (Claude's `tools`, a constrained JSON answer for
the embedded model); the inputs are checked with the pydantic models below whatever sent them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pipeline.memory.status import MAX_TEXT_CHARS, MAX_TOPIC_CHARS

UPDATE_STATUS = "update_status"
SEARCH_MEMORY = "search_memory"


class UpdateStatusInput(BaseModel):
    """A status note: the thing it is about, and where it stands."""

    model_config = ConfigDict(extra="forbid")

    topic: str = Field(
        min_length=1,
        description=(
            "The ongoing thing, in a few words (e.g. 'car', 'passport renewal'). The same "
            "topic later replaces this note."
        ),
    )
    text: str = Field(
        min_length=1,
        description="Where it stands now, in one short sentence (e.g. 'At the shop until Friday').",
    )


class SearchMemoryInput(BaseModel):
    """A search of past conversations and stored facts."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, description="What you're trying to remember. Be specific.")
    search_type: Literal["conversations", "facts", "both"] = Field(
        default="both", description="Where to look."
    )


@dataclass(frozen=True)
class ToolSpec:
    """One tool as a model is offered it."""

    name: str
    description: str
    input_model: type[BaseModel]

    @property
    def input_schema(self) -> dict[str, Any]:
        """The input's JSON schema, without pydantic's titles."""
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        schema.pop("description", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        UPDATE_STATUS,
        "Write a short status note when the person reports where an ongoing thing stands "
        '("the car is at the shop until Friday", "still waiting on the visa"). Notes are '
        "shown to you on every turn, so you never ask about it again; a note on the same topic "
        f"replaces the earlier one. Topic up to {MAX_TOPIC_CHARS} characters, text up to "
        f"{MAX_TEXT_CHARS}.",
        UpdateStatusInput,
    ),
    ToolSpec(
        SEARCH_MEMORY,
        "Search your past conversations and extracted knowledge. Use when your conversation "
        "history and notes don't have what you need — like trying to remember something from "
        "weeks ago.",
        SearchMemoryInput,
    ),
)
