"""A loopback HTTP server that speaks the Anthropic Messages wire format from scripted answers.

It lets the real SDK record cassettes on a machine that cannot reach the API. Responses carry
the model name `synthetic-fixture`, so nothing recorded from it can pass for a real model.
Usage is estimated at four characters a token, with prompt caching simulated as the API does it:
a cached prefix shorter than the requested model's minimum cacheable length
(`pipeline.providers.claude.caching`) is not cached at all; a longer one is written by the first
request and read by later ones.

For a model in the capability table (`pipeline.providers.claude.models`) the request shape is
checked as the API checks it, with its 400 `invalid_request_error`: a forced `tool_choice` on a
model that rejects it or with thinking on, an assistant prefill, a `thinking` type the model does
not take, `output_config.format` where structured outputs are not offered. A structured-output
request (`output_config.format`) is answered with the scripted tool input as a JSON text block;
where thinking stays on, a (synthetic) thinking block comes first and counts as output. A model
the table does not list is served without these checks, as a compatible server would.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from evals.loopback.answers import Answer
from evals.loopback.background import BackgroundServer
from evals.loopback.batches import BatchDesk
from evals.loopback.ratelimit import RateLimits
from evals.loopback.wire_checks import (
    model_problem,
    output_format,
    request_kind,
    thinking_on,
    wire_problem,
)
from pipeline.providers.claude import engages

SYNTHETIC_MODEL = "synthetic-fixture"
MESSAGES_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
# A stand-in organisation header, so tests can show that cassettes scrub the real one.
ORGANIZATION_HEADER = "anthropic-organization-id"
SYNTHETIC_ORGANIZATION = "synthetic-organization-0000"

_ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "not_found_error": 404,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


@dataclass(frozen=True)
class Seen:
    """A request the server received: its kind and the person's last message."""

    kind: str
    message: str
    matched: bool


def tokens(text: str) -> int:
    """The loopback's token estimate: four characters a token."""
    return math.ceil(len(text) / 4)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n\n".join(
            str(block.get("text", "")) for block in content if isinstance(block, dict)
        )
    return ""


class LoopbackServer(BackgroundServer):
    """The server, run in a background thread; use it as a context manager."""

    def __init__(
        self,
        answers: Sequence[Answer],
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        limits: RateLimits | None = None,
        latency: float = 0.0,
        batch_polls: int = 1,
    ) -> None:
        self._answers = list(answers)
        # Message Batches (evals/loopback/batches.py): polls answered in_progress before ended.
        self.batches = BatchDesk(self.answer, batch_polls)
        # Rate limits (evals/loopback/ratelimit.py) and the seconds an accepted request takes.
        self.limits = limits
        self.latency = latency
        self._lock = threading.Lock()
        self._cache: set[str] = set()
        self._served: dict[int, int] = {}  # answer index -> errors served (for error.times)
        self.seen: list[Seen] = []
        super().__init__(host, port, _handler_for(self))

    @property
    def url(self) -> str:
        """The base URL to give the SDK (ANTHROPIC_BASE_URL)."""
        return self.address

    @property
    def unmatched(self) -> list[Seen]:
        """Requests no scripted answer served."""
        return [s for s in self.seen if not s.matched]

    def answer(self, body: Any) -> tuple[int, str, dict[str, str]]:
        """Status, body text and extra headers for one Messages request body."""
        problem = wire_problem(body) or model_problem(body)
        if problem:
            return _error(400, "invalid_request_error", problem)
        kind = request_kind(body)
        messages = body["messages"]
        # In a tool loop the request ends with tool results: the person's message is the last
        # one with text, and the previous assistant text the last before it.
        texts = [(m.get("role"), _text(m.get("content"))) for m in messages]
        said = [i for i, (role, text) in enumerate(texts) if role == "user" and text.strip()]
        last = said[-1] if said else len(messages) - 1
        message = texts[last][1]
        previous = next(
            (text for role, text in reversed(texts[:last]) if role == "assistant" and text), ""
        )
        results = _tool_results(messages[-1].get("content"))
        found = self._match(kind, message, previous, _text(body.get("system")), results)
        with self._lock:
            self.seen.append(Seen(kind, message, found is not None))
        if found is None:
            return _error(
                400,
                "invalid_request_error",
                f"the synthetic loopback has no scripted {kind} answer for {message!r}",
            )
        if found.error is not None:
            status = found.error.status or _ERROR_STATUS.get(found.error.type, 500)
            code, text, _ = _error(status, found.error.type, found.error.message)
            headers: dict[str, str] = {}
            if found.error.retry_after is not None:
                headers["retry-after"] = str(found.error.retry_after)
            if found.error.should_retry is not None:
                headers["x-should-retry"] = "true" if found.error.should_retry else "false"
            return code, text, headers
        if found.body_raw is not None:
            return 200, found.body_raw, {}
        return 200, json.dumps(self._message(body, found), ensure_ascii=False), {}

    def limited_answer(self, body: Any) -> tuple[int, str, dict[str, str]]:
        """`answer`, behind the rate limits and the latency when they are set."""
        if self.limits is None:
            if self.latency:
                time.sleep(self.latency)
            return self.answer(body)
        tokens = 0
        if not (wire_problem(body) or model_problem(body)):
            # what counts against the input-token limit: uncached input and cache writes
            usage = self._usage(body, record=False)
            tokens = usage["input_tokens"] + usage["cache_creation_input_tokens"]
        verdict = self.limits.take(tokens)
        if verdict.status == 429:
            status, text, _ = _error(
                429,
                "rate_limit_error",
                "Number of requests or input tokens has exceeded your per-minute rate limit",
            )
            return status, text, verdict.headers
        if verdict.status == 529:
            status, text, _ = _error(529, "overloaded_error", "Overloaded")
            return status, text, verdict.headers
        if self.latency:
            time.sleep(self.latency)
        status, text, headers = self.answer(body)
        return status, text, verdict.headers | headers

    def count_tokens(self, body: Any) -> tuple[int, str, dict[str, str]]:
        """The token-counting endpoint: tools, system and messages at four characters a token."""
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return _error(400, "invalid_request_error", "messages: field required")
        tools = json.dumps(body["tools"], sort_keys=True) if body.get("tools") else ""
        text = tools + _text(body.get("system")) + json.dumps(body["messages"], ensure_ascii=False)
        return 200, json.dumps({"input_tokens": tokens(text)}), {}

    def _match(
        self, kind: str, message: str, previous: str, system: str, tool_results: str = ""
    ) -> Answer | None:
        best: int | None = None
        with self._lock:
            for index, answer in enumerate(self._answers):
                times = answer.error.times if answer.error is not None else None
                if times is not None and self._served.get(index, 0) >= times:
                    continue  # this error has been served as often as scripted
                if answer.matches(kind, message, previous, system, tool_results) and (
                    best is None or answer.specificity() > self._answers[best].specificity()
                ):
                    best = index
            if best is None:
                return None
            self._served[best] = self._served.get(best, 0) + 1
        return self._answers[best]

    def _message(self, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:24]
        content: list[dict[str, Any]] = []
        if thinking_on(body):
            content.append(
                {
                    "type": "thinking",
                    "thinking": "(synthetic loopback: no model thought here)",
                    "signature": f"synthetic_{digest}",
                }
            )
        if answer.text is not None:
            content.append({"type": "text", "text": answer.text})
        choice = body.get("tool_choice") or {}
        tool_name = answer.tool_name or choice.get("name") or "classify_intent"
        if choice.get("type") == "none":
            pass  # the API never answers a tool_use block when tools are turned off
        elif output_format(body) is not None and not body.get("tools"):
            if answer.tool_input is not None:
                text = json.dumps(answer.tool_input, ensure_ascii=False)
                content.append({"type": "text", "text": text})
            elif answer.tool_input_raw is not None:
                content.append({"type": "text", "text": answer.tool_input_raw})
        elif answer.tool_input is not None or answer.tool_input_raw is not None:
            tool_input: Any = (
                answer.tool_input if answer.tool_input is not None else answer.tool_input_raw
            )
            content.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_synthetic_{digest}",
                    "name": tool_name,
                    "input": tool_input,
                }
            )
        stop = answer.stop_reason or (
            "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        )
        output = json.dumps(content, ensure_ascii=False)
        return {
            "id": f"msg_synthetic_{digest}",
            "type": "message",
            "role": "assistant",
            "model": SYNTHETIC_MODEL,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {**self._usage(body), "output_tokens": tokens(output) if content else 0},
        }

    def _usage(self, body: dict[str, Any], *, record: bool = True) -> dict[str, int]:
        tools = json.dumps(body["tools"], sort_keys=True) if body.get("tools") else ""
        system = body.get("system") or []
        blocks = [system] if isinstance(system, str) else list(system)
        cached_upto = max(
            (i for i, b in enumerate(blocks) if isinstance(b, dict) and b.get("cache_control")),
            default=-1,
        )
        prefix = tools + "".join(_text([b]) for b in blocks[: cached_upto + 1])
        rest = "".join(_text([b]) for b in blocks[cached_upto + 1 :]) + json.dumps(
            body.get("messages"), ensure_ascii=False
        )
        answer_format = output_format(body)
        if answer_format is not None:  # the schema is read as input too (counted, not cached)
            rest += json.dumps(answer_format, sort_keys=True)
        usage = {
            "input_tokens": tokens(rest),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        }
        if cached_upto < 0 or not engages(tokens(prefix), str(body["model"])):
            usage["input_tokens"] += tokens(prefix)
            return usage
        key = hashlib.sha256(prefix.encode()).hexdigest()
        with self._lock:
            hit = key in self._cache
            if record:
                self._cache.add(key)
        usage["cache_read_input_tokens" if hit else "cache_creation_input_tokens"] = tokens(prefix)
        return usage


def _tool_results(content: Any) -> str:
    """The text of the tool_result blocks of a message's content."""
    if not isinstance(content, list):
        return ""
    found = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            inner = block.get("content")
            found.append(inner if isinstance(inner, str) else _text(inner))
    return "\n\n".join(found)


def _error(status: int, kind: str, message: str) -> tuple[int, str, dict[str, str]]:
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return status, json.dumps(body, ensure_ascii=False), {}


def _handler_for(server: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the test output is the record."""

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            path = self.path.split("?")[0]
            if server.batches.handles(path):
                return self._batch("POST", path, raw)
            if path not in (MESSAGES_PATH, COUNT_TOKENS_PATH):
                return self._send(*_error(404, "not_found_error", f"no route {self.path}"))
            if not (self.headers.get("x-api-key") or self.headers.get("authorization")):
                return self._send(*_error(401, "authentication_error", "x-api-key is required"))
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                return self._send(*_error(400, "invalid_request_error", "the body is not JSON"))
            if path == COUNT_TOKENS_PATH:
                return self._send(*server.count_tokens(body))
            self._send(*server.limited_answer(body))

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if not server.batches.handles(path):
                return self._send(*_error(404, "not_found_error", f"no route {self.path}"))
            self._batch("GET", path, b"")

        def _batch(self, method: str, path: str, raw: bytes) -> None:
            if not (self.headers.get("x-api-key") or self.headers.get("authorization")):
                return self._send(*_error(401, "authentication_error", "x-api-key is required"))
            try:
                body = json.loads(raw) if raw else None
            except json.JSONDecodeError:
                return self._send(*_error(400, "invalid_request_error", "the body is not JSON"))
            self._send(*server.batches.route(method, path, body, server.url))

        def _send(self, status: int, text: str, headers: dict[str, str]) -> None:
            data = text.encode("utf-8")
            digest = hashlib.sha256(data).hexdigest()[:24]
            compressed = "gzip" in (self.headers.get("accept-encoding") or "")
            if compressed:
                data = gzip.compress(data, mtime=0)
            self.send_response(status)
            if "content-type" not in headers:
                self.send_header("content-type", "application/json")
            self.send_header("request-id", f"req_synthetic_{digest}")
            self.send_header(ORGANIZATION_HEADER, SYNTHETIC_ORGANIZATION)
            if compressed:
                self.send_header("content-encoding", "gzip")
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
