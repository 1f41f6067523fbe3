"""Scripted answers for the loopback server, read from a YAML file.

    answers:
      - kind: classify                   # classify (the request has tools) | respond
        message: "I'm allergic to shellfish"   # the person's last message; absent = any
        after: "is that right"           # optional: text in the previous assistant message
        tool_input: {intent: remember_about_me, personal_fact: "You're allergic to shellfish"}
      - kind: respond
        text: "I'll remember that you're allergic to shellfish — is that right?"
      - kind: classify
        message: "bad: overloaded"
        error: {status: 529, type: overloaded_error, message: Overloaded}
      - kind: classify                   # a 429 once (retry-after 0 seconds), then the next answer
        message: "I'm allergic to shellfish"
        error: {status: 429, type: rate_limit_error, retry_after: 0, times: 1}
      - kind: respond                    # the responder calls a tool it was offered ...
        message: "the car is at the shop until Friday"
        tool_name: update_status
        tool_input: {topic: car, text: "At the shop until Friday"}
      - kind: respond                    # ... and answers once the tool's result is back
        message: "the car is at the shop until Friday"
        tool_result: "noted"             # text in the request's last tool_result
        text: "Noted — I hope it's back on the road soon."

`tool_name` names the tool_use block (default: the forced tool, else classify_intent); a
request whose `tool_choice` is `none` gets no tool_use block, as the API does. In a request that
ends with tool results, `message` is the person's last message and `after` the last assistant
text before it; `tool_result` matches text in those results.

An answer is one of: `tool_input` (a tool_use block), `tool_input_raw` (a tool_use block whose
input is this string, as some compatible servers send it), `text` (a text block), `error` (an
error body with its status), or `body_raw` (a 200 whose body is this text, not JSON). The most
specific matching answer wins (message, after and system_contains each count); ties go to the
first in the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from pipeline.errors import ConverseError

StopReason = Literal["end_turn", "tool_use", "max_tokens", "refusal", "stop_sequence"]


def normalise(text: str) -> str:
    """Case and spacing ignored."""
    return " ".join(text.casefold().split())


class ErrorAnswer(BaseModel):
    """An error response: HTTP status and the Messages API error type."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: int
    type: str
    message: str = ""
    retry_after: int | None = None
    # Sent as the x-should-retry header when set; the SDK obeys it over its status-code rules.
    should_retry: bool | None = None
    # Answer only the first `times` matching requests with this error, then let the next best
    # answer serve them (a 429 followed by a 200, as a retry would see it); None: every time.
    times: int | None = None


class Answer(BaseModel):
    """One scripted answer and the requests it matches."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["classify", "respond"]
    message: str | None = None
    after: str | None = None
    system_contains: str | None = None
    tool_result: str | None = None
    tool_name: str | None = None
    tool_input: dict[str, Any] | None = None
    tool_input_raw: str | None = None
    text: str | None = None
    stop_reason: StopReason | None = None
    error: ErrorAnswer | None = None
    body_raw: str | None = None

    @model_validator(mode="after")
    def _one_answer(self) -> Answer:
        given = [
            name
            for name in ("tool_input", "tool_input_raw", "text", "error", "body_raw")
            if getattr(self, name) is not None
        ]
        if len(given) > 1 and set(given) != {"text", "tool_input"}:
            raise ValueError(f"give one of tool_input, text, error, body_raw; got {given}")
        if not given and self.stop_reason is None:
            raise ValueError("give an answer: tool_input, text, error or body_raw")
        return self

    def specificity(self) -> int:
        """How many conditions the answer sets; the most specific match wins."""
        conditions = (self.message, self.after, self.system_contains, self.tool_result)
        return sum(x is not None for x in conditions)

    def matches(
        self, kind: str, message: str, previous: str, system: str, tool_results: str = ""
    ) -> bool:
        """Whether this answer serves a request with these parts."""
        if kind != self.kind:
            return False
        if self.tool_result is not None and normalise(self.tool_result) not in normalise(
            tool_results
        ):
            return False
        if self.message is not None:
            wanted = normalise(self.message)
            last_paragraph = message.strip().split("\n\n")[-1]
            if wanted not in (normalise(message), normalise(last_paragraph)):
                return False
        if self.after is not None and normalise(self.after) not in normalise(previous):
            return False
        return self.system_contains is None or normalise(self.system_contains) in normalise(system)


def load_answers(path: Path) -> list[Answer]:
    """Read an answers file; errors name the file and the entry."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError as exc:
        raise ConverseError(f"answers file {path} not found", "pass an existing file") from exc
    except yaml.YAMLError as exc:
        raise ConverseError(f"answers file {path} is not valid YAML: {exc}", "fix it") from exc
    answers: list[Answer] = []
    for index, raw in enumerate(data.get("answers") or []):
        try:
            answers.append(Answer.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ConverseError(
                f"answers file {path}, entry {index + 1}: {first['msg']}", "fix the entry"
            ) from exc
    return answers
