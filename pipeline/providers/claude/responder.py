"""The Claude responder: the assembled system prompt (its stable prefix cached), the history,
and, when the turn offers them, the tools (status notes, deep recall) in a bounded loop."""

from __future__ import annotations

from typing import Any, cast

import anthropic
from anthropic.types import MessageParam, ToolChoiceParam, ToolParam

from pipeline.domain import Reply, Usage
from pipeline.errors import ProviderError
from pipeline.providers.base import RespondRequest
from pipeline.providers.claude.calls import CallFailed, WireMessage, create_message
from pipeline.providers.claude.models import thinking_plan
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.wire import history_messages, responder_system
from pipeline.providers.roles import REPLY_FALLBACK, AsProviderError, ClientRole
from pipeline.tools import Toolbox, ToolSpec

NAME = "claude"
# Rounds of tool calls before the model must answer: one call more, with tools turned off.
MAX_TOOL_ROUNDS = 3


def tool_params(specs: tuple[ToolSpec, ...]) -> list[ToolParam]:
    """The tools in the Messages API's form."""
    return [
        {"name": s.name, "description": s.description, "input_schema": s.input_schema}
        for s in specs
    ]


def _tool_results(response: WireMessage, tools: Toolbox) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for block in response.content:
        if block.type != "tool_use":
            continue
        outcome = tools.call(block.name or "", block.input)
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": block.id or "",
            "content": outcome.text,
        }
        if outcome.is_error:
            result["is_error"] = True
        results.append(result)
    return results


class ClaudeResponder(ClientRole[anthropic.Anthropic, ClaudeSettings]):
    """Writes the companion's reply with one Messages call, or a few when it calls tools."""

    name = NAME
    model_field = "responder_model"

    def _call(
        self,
        request: RespondRequest,
        messages: list[MessageParam],
        tools: list[ToolParam] | None,
        tool_choice: ToolChoiceParam | None,
    ) -> WireMessage:
        # Thinking as far off as the model allows: its tokens count against max_tokens.
        plan = thinking_plan(self.model, self._settings.responder_max_tokens)
        with AsProviderError(CallFailed, REPLY_FALLBACK):
            return create_message(
                self._client,
                max_retries=self._settings.max_retries,
                model=self.model,
                max_tokens=plan.max_tokens,
                system=responder_system(request.system),
                messages=messages,
                refs=request.system.refs,
                tools=tools,
                tool_choice=tool_choice,
                thinking=plan.thinking,
                output_config=plan.output_config(),
            )

    def respond(self, request: RespondRequest) -> Reply:
        """The model's reply; raises ProviderError when there is no usable one.

        Each round the model may call tools; their results go back in the next request. After
        MAX_TOOL_ROUNDS rounds the tools are turned off (`tool_choice: none`) for the answer."""
        messages = history_messages(request.history, request.message)
        offered = tool_params(request.tools.specs) if request.tools is not None else None
        usage = Usage()
        rounds = 0
        while True:
            last = offered is not None and rounds == MAX_TOOL_ROUNDS
            response = self._call(request, messages, offered, {"type": "none"} if last else None)
            usage = usage + response.usage_record()
            calls = any(b.type == "tool_use" for b in response.content)
            if request.tools is None or last or not calls or response.stop_reason != "tool_use":
                break
            rounds += 1
            sent_back = [b.model_dump(exclude_none=True) for b in response.content]
            results = _tool_results(response, request.tools)
            messages = [
                *messages,
                cast(MessageParam, {"role": "assistant", "content": sent_back}),
                cast(MessageParam, {"role": "user", "content": results}),
            ]
        return self._reply(response, usage)

    def _reply(self, response: WireMessage, usage: Usage) -> Reply:
        if response.stop_reason == "refusal":
            raise ProviderError("the model refused to reply (stop_reason refusal)", REPLY_FALLBACK)
        if not response.text:
            stop = response.stop_reason
            raise ProviderError(f"the model's reply was empty (stop_reason {stop})", REPLY_FALLBACK)
        return Reply(
            text=response.text,
            provider=NAME,
            model=response.model,
            usage=usage,
            truncated=response.stop_reason == "max_tokens",
        )
