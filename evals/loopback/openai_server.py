"""A loopback HTTP server that speaks the OpenAI Chat Completions wire format
(`POST /v1/chat/completions`) from a script of answers, for testing the openai-compatible
provider without a network or a model.

Answers are served in order, one per request; a request beyond the script gets HTTP 500 and is
counted in `unmatched`. The server is bounded: it stops itself after `lifetime` seconds even if
nobody closes it. Completions carry the model name `synthetic-fixture` unless a step says
otherwise, so nothing it answers can pass for a real model.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Self

from evals.loopback.background import BackgroundServer

SYNTHETIC_MODEL = "synthetic-fixture"
COMPLETIONS_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Step:
    """One scripted answer: a status, a JSON body (or raw text), headers and a delay."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(
    content: str | None,
    *,
    model: str = SYNTHETIC_MODEL,
    finish_reason: str = "stop",
    refusal: str | None = None,
) -> Step:
    """A successful completion whose one choice says `content` (or refuses)."""
    return Step(
        {
            "id": "chatcmpl-loopback",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": refusal},
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": 12,
                "completion_tokens": 5,
                "total_tokens": 17,
            },
        }
    )


def intent(name: str, **params: str) -> Step:
    """A completion whose content is the JSON classification `{"intent": name, ...}`."""
    return completion(json.dumps({"intent": name, **params}))


def error(status: int, message: str = "scripted error") -> Step:
    """An error answer, with `retry-after-ms` small so the SDK's retries are quick."""
    body = {"error": {"message": message, "type": "server_error", "code": None}}
    return Step(body, status=status, headers={"retry-after-ms": "10"})


class OpenAILoopback(BackgroundServer):
    """The server, run in a background thread; use it as a context manager. It stops itself
    after `lifetime` seconds, so a test that forgets it frees the port."""

    def __init__(
        self, script: Sequence[Step], *, lifetime: float = 30.0, host: str = "127.0.0.1"
    ) -> None:
        self._script = list(script)
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.unmatched = 0
        super().__init__(host, 0, _handler_for(self))
        self._timer = threading.Timer(lifetime, self.close)
        self._timer.daemon = True

    @property
    def url(self) -> str:
        """The base URL to give the SDK: the server's address and `/v1`."""
        return f"{self.address}/v1"

    def start(self) -> Self:
        """Start serving in the background, and the timer that stops it."""
        super().start()
        self._timer.start()
        return self

    def close(self) -> None:
        """Stop serving and free the port (once; later calls do nothing)."""
        self._timer.cancel()
        super().close()

    def next_step(self, body: Any, headers: dict[str, str]) -> Step:
        """Record a request and take the next scripted answer."""
        with self._lock:
            self.requests.append(body if isinstance(body, dict) else {})
            self.headers.append(headers)
            if self._script:
                return self._script.pop(0)
            self.unmatched += 1
        return error(500, "the loopback script has no answer left")


def _handler_for(server: OpenAILoopback) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            if self.path != COMPLETIONS_PATH:
                self._send(Step({"error": {"message": f"no route {self.path}"}}, status=404))
                return
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                body = None
            headers = {k.lower(): v for k, v in self.headers.items()}
            self._send(server.next_step(body, headers))

        def _send(self, step: Step) -> None:
            if step.delay:
                time.sleep(step.delay)
            text = step.body if isinstance(step.body, str) else json.dumps(step.body)
            data = text.encode()
            try:
                self.send_response(step.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in step.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
                pass

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests read `requests`, not a log."""

    return Handler
