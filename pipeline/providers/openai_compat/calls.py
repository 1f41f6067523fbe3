"""One Chat Completions call: sent through the openai SDK, its body checked with pydantic, and
every failure named in one line (never with headers or keys)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import openai
from openai.types.chat import ChatCompletionMessageParam
from pydantic import ValidationError

from pipeline.domain import HistoryTurn, PromptRef
from pipeline.providers.chat_wire import ChatCompletion
from pipeline.providers.claude.wire import history_messages, prompts_header

API = "the Chat Completions API"
_RETRIED_STATUSES = frozenset({408, 409, 429})


def describe_api_error(exc: openai.APIError, max_retries: int) -> str:
    """One line saying what went wrong with a call, and whether retries were spent."""
    if isinstance(exc, openai.APITimeoutError):
        return f"{API} timed out{_after(max_retries)}"
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        reason = f": {type(cause).__name__}: {cause}" if cause is not None else ""
        return f"could not reach {API}{_after(max_retries)}{reason}"
    if isinstance(exc, openai.APIStatusError):
        retried = ""
        if exc.status_code in _RETRIED_STATUSES or exc.status_code >= 500:
            retried = _after(max_retries)
        detail = _error_message(exc.body)
        return f"{API} answered HTTP {exc.status_code}{retried}{detail}"
    return f"the {API} call failed: {type(exc).__name__}"


def _error_message(body: object) -> str:
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message.strip():
            return f": {' '.join(message.split())[:200]}"
    return ""


def _after(max_retries: int) -> str:
    if not max_retries:
        return ""
    return f" after {max_retries} {'retry' if max_retries == 1 else 'retries'}"


class WireCompletion(ChatCompletion):
    """A response from a server, which names the model that answered (recorded with each
    call)."""

    model: str


class CallFailed(Exception):
    """A call gave no usable response; the message says why in one line."""


def chat_messages(
    system: str, history: Sequence[HistoryTurn], message: str, *, notes: bool = False
) -> list[ChatCompletionMessageParam]:
    """The system prompt as a system message, then the conversation as Claude sees it: the
    same turns, roles and (for the classifier) the same notes on companion turns."""
    messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": system}]
    for turn in history_messages(history, message, notes=notes):
        text = str(turn["content"])
        if turn["role"] == "user":
            messages.append({"role": "user", "content": text})
        else:
            messages.append({"role": "assistant", "content": text})
    return messages


def create_completion(
    client: openai.OpenAI,
    *,
    max_retries: int,
    model: str,
    max_tokens: int,
    messages: list[ChatCompletionMessageParam],
    refs: Iterable[PromptRef],
    response_format: dict[str, Any] | None = None,
) -> WireCompletion:
    """One call, its body parsed; CallFailed for any failure of the server or the body."""
    extra: dict[str, Any] = {}
    if response_format is not None:
        extra["response_format"] = response_format
    try:
        raw = client.chat.completions.with_raw_response.create(
            model=model,
            max_tokens=max_tokens,
            messages=messages,
            extra_headers=prompts_header(refs),
            extra_body=extra or None,
        )
    except openai.APIError as exc:
        raise CallFailed(describe_api_error(exc, max_retries)) from exc
    try:
        return WireCompletion.model_validate(json.loads(raw.text))
    except json.JSONDecodeError as exc:
        raise CallFailed(f"{API} answered with a body that is not JSON ({exc})") from exc
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "body"
        raise CallFailed(
            f"{API} answered with something that is not a completion ({where}: {error['msg']})"
        ) from exc
