"""The embedded model's tools: one small constrained call that decides whether the message
reports a status (update_status, with its topic and text) or asks for something the context
lacks (search_memory, with a query), answered in JSON by a grammar from the schema below.

The decision is advisory: an answer that is not valid JSON, or a tool call the toolbox refuses,
leaves the turn without a tool and never fails the reply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.domain import Usage
from pipeline.memory.status import MAX_TEXT_CHARS, MAX_TOPIC_CHARS
from pipeline.prompting import PromptLibrary
from pipeline.providers.local_llm.runtime import Engine, GenerationFailed, Message
from pipeline.tools import SEARCH_MEMORY, UPDATE_STATUS, Toolbox

FAMILY = "tools"
DECISION_MAX_TOKENS = 120


class Decision(BaseModel):
    """The model's decision, as the grammar allows it."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["none", "update_status", "search_memory"]
    topic: str = ""
    text: str = ""
    query: str = ""


def decision_format() -> dict[str, Any]:
    """The response format llama.cpp turns into a grammar: one branch per action, each with
    only its own fields, so a small model cannot give a status a query or leave out its topic."""

    def branch(action: str, **fields: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"action": {"type": "string", "const": action}, **fields},
            "required": ["action", *fields],
            "additionalProperties": False,
        }

    schema = {
        "anyOf": [
            branch("none"),
            branch(
                UPDATE_STATUS,
                topic={"type": "string", "minLength": 1, "maxLength": MAX_TOPIC_CHARS},
                text={"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS},
            ),
            branch(SEARCH_MEMORY, query={"type": "string", "minLength": 1, "maxLength": 100}),
        ]
    }
    return {"type": "json_schema", "json_schema": {"name": "tool_decision", "schema": schema}}


@dataclass(frozen=True)
class ToolOutcome:
    """What the decision led to: recall lines to show the reply, and the call's usage."""

    recalled: str = ""
    usage: Usage = field(default_factory=Usage)
    error: str | None = None


def parse_decision(text: str) -> Decision | str:
    """The decision in a generated answer, or what was wrong with it."""
    try:
        return Decision.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        return f"the tool decision is not valid JSON ({exc})"
    except ValidationError as exc:
        return f"the tool decision does not match its schema: {exc.errors()[0]['msg']}"


def use_tools(
    engine: Engine, library: PromptLibrary, tools: Toolbox, operator_name: str, message: str
) -> ToolOutcome:
    """Decide, then call the tool the model chose through the toolbox."""
    notes = [f"{n.topic}: {n.text}" for n in tools.pending]
    system = library.render(FAMILY, operator_name=operator_name, notes=notes)
    messages: list[Message] = [
        {"role": "system", "content": system.text},
        {"role": "user", "content": message},
    ]
    try:
        answer = engine.chat(
            messages, max_tokens=DECISION_MAX_TOKENS, response_format=decision_format()
        )
    except GenerationFailed as exc:
        return ToolOutcome(error=str(exc))
    decided = parse_decision(answer.text)
    if isinstance(decided, str):
        return ToolOutcome(usage=answer.usage, error=decided)
    if decided.action == UPDATE_STATUS:
        result = tools.call(UPDATE_STATUS, {"topic": decided.topic, "text": decided.text})
        return ToolOutcome(usage=answer.usage, error=result.text if result.is_error else None)
    if decided.action == SEARCH_MEMORY:
        result = tools.call(SEARCH_MEMORY, {"query": decided.query or message})
        if result.is_error:
            return ToolOutcome(usage=answer.usage, error=result.text)
        return ToolOutcome(recalled=result.text, usage=answer.usage)
    return ToolOutcome(usage=answer.usage)
