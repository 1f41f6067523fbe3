"""One Messages call: sent through the SDK, its response checked with pydantic, failures named."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import anthropic
from anthropic import omit
from anthropic.types import (
    MessageParam,
    OutputConfigParam,
    TextBlockParam,
    ThinkingConfigParam,
    ToolChoiceParam,
    ToolParam,
)
from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.domain import PromptRef, Usage
from pipeline.providers.claude.prices import one_hour_writes
from pipeline.providers.claude.retries import MAX_WAIT, RETRIES_HEADER, requested_wait, retryable
from pipeline.providers.claude.wire import prompts_header


def describe_api_error(exc: anthropic.APIError, max_retries: int) -> str:
    """One line saying what went wrong with a call; never includes headers or keys.

    How often the call was retried is what `retries.CallRetries` did (it marks the failure);
    without that mark, `max_retries` is assumed."""
    taken = _taken(exc, max_retries)
    if isinstance(exc, anthropic.APITimeoutError):
        return f"the Messages API timed out{_after(taken)}"
    if isinstance(exc, anthropic.APIConnectionError):
        cause = exc.__cause__
        reason = f": {type(cause).__name__}: {cause}" if cause is not None else ""
        return f"could not reach the Messages API{_after(taken)}{reason}"
    if isinstance(exc, anthropic.APIStatusError):
        kind = exc.type or "error"
        message = f": {exc.api_message}" if exc.api_message else ""
        retried = _retried(exc, max_retries, taken)
        return f"the Messages API answered HTTP {exc.status_code} {kind}{retried}{message}"
    return f"the Messages API call failed: {type(exc).__name__}: {exc}"


def _taken(exc: anthropic.APIError, max_retries: int) -> int:
    marked = getattr(exc, "converse_retries", None)
    if marked is None and isinstance(exc, anthropic.APIStatusError):
        marked = exc.response.headers.get(RETRIES_HEADER)
    try:
        return int(marked) if marked is not None else max_retries
    except ValueError:
        return max_retries


def _retried(exc: anthropic.APIStatusError, max_retries: int, taken: int) -> str:
    """What was done before giving up, by the rules CallRetries follows (x-should-retry first)."""
    headers = exc.response.headers
    should = headers.get("x-should-retry")
    if should == "false":
        return ", not retried (the server sent x-should-retry: false)" if max_retries else ""
    if should != "true" and not retryable(exc.status_code):
        return ""
    wait = requested_wait(headers)
    if max_retries and taken < max_retries and wait is not None and wait > MAX_WAIT:
        return (
            f", not retried (the server asked for a wait of {wait:g} s, more than the "
            f"{MAX_WAIT:g} s allowed)"
        )
    return _after(taken)


def _after(max_retries: int) -> str:
    if not max_retries:
        return ""
    return f" after {max_retries} {'retry' if max_retries == 1 else 'retries'}"


class WireBlock(BaseModel):
    """A content block of a response: the fields the providers read, and the rest kept, so a
    tool loop can send the block back as it came (thinking signatures included)."""

    model_config = ConfigDict(extra="allow")

    type: str
    id: str | None = None
    text: str | None = None
    name: str | None = None
    input: Any = None


class WireUsage(BaseModel):
    """Token counts as the API reports them."""

    model_config = ConfigDict(extra="ignore")

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    # {"ephemeral_5m_input_tokens": N, "ephemeral_1h_input_tokens": M} where the API splits it
    cache_creation: Any = None

    def one_hour_writes(self) -> int:
        """Cache-write tokens written with the one-hour TTL (0 when not reported)."""
        return one_hour_writes({"cache_creation": self.cache_creation})


class WireMessage(BaseModel):
    """A Messages API response, checked with pydantic before anything reads it."""

    model_config = ConfigDict(extra="ignore")

    model: str
    content: list[WireBlock]
    stop_reason: str | None = None
    usage: WireUsage = WireUsage()

    @property
    def text(self) -> str:
        """The text blocks, joined."""
        return "".join(b.text or "" for b in self.content if b.type == "text").strip()

    def tool_input(self, name: str) -> tuple[bool, Any]:
        """Whether the response called tool `name`, and the input it gave."""
        for block in self.content:
            if block.type == "tool_use" and block.name == name:
                return True, block.input
        return False, None

    def usage_record(self) -> Usage:
        """Token counts, cache reads and writes included."""
        return Usage(
            input_tokens=self.usage.input_tokens,
            output_tokens=self.usage.output_tokens,
            cache_read_input_tokens=self.usage.cache_read_input_tokens or 0,
            cache_creation_input_tokens=self.usage.cache_creation_input_tokens or 0,
            cache_creation_1h_input_tokens=self.usage.one_hour_writes(),
        )


class CallFailed(Exception):
    """A Messages call gave no usable response; the message says why in one line."""


def create_message(
    client: anthropic.Anthropic,
    *,
    max_retries: int,
    model: str,
    max_tokens: int,
    system: list[TextBlockParam],
    messages: list[MessageParam],
    refs: Iterable[PromptRef],
    tools: list[ToolParam] | None = None,
    tool_choice: ToolChoiceParam | None = None,
    thinking: ThinkingConfigParam | None = None,
    output_config: OutputConfigParam | None = None,
) -> WireMessage:
    """One Messages call, its response parsed; CallFailed for any failure of the API or body."""
    try:
        raw = client.messages.with_raw_response.create(
            model=model,
            max_tokens=max_tokens,
            system=system,
            messages=messages,
            tools=tools if tools is not None else omit,
            tool_choice=tool_choice if tool_choice is not None else omit,
            thinking=thinking if thinking is not None else omit,
            output_config=output_config if output_config is not None else omit,
            extra_headers=prompts_header(refs),
        )
    except anthropic.APIError as exc:
        raise CallFailed(describe_api_error(exc, max_retries)) from exc
    try:
        return WireMessage.model_validate(raw.json())
    except json.JSONDecodeError as exc:
        raise CallFailed(f"the Messages API answered with a body that is not JSON ({exc})") from exc
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "body"
        raise CallFailed(
            f"the Messages API answered with something that is not a message ({where}: "
            f"{error['msg']})"
        ) from exc
