"""Retries for recording: whole calls retried by the harness, failed exchanges left out.

`converse record` runs the SDK with retries off, so each HTTP exchange is one call the SDK
makes, and retries here, in SDK middleware: a 408, 409, 429 or 5xx answer is retried after the
wait its `retry-after-ms` / `retry-after` header asks for (else 1 s, 2 s, 4 s ...), at most
`attempts` times and never waiting longer than `max_wait`; an answer with `x-should-retry:
false` is not retried. Before each retry the failed exchange is taken out of the cassette
(`discard`), so a recording holds only the final answer of each call and replays as it went.
What happened to each call is noted in `notes`, for the command to print.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import anthropic
from anthropic import APIRequest, APIResponse, CallNext

from pipeline.providers.claude import requested_wait, retryable

ATTEMPTS = 3
MAX_WAIT = 60.0


class RecordingRetries(anthropic.Middleware):
    """Retry failed calls (bounded, honouring retry-after); drop the failures from the cassette."""

    def __init__(
        self,
        *,
        discard: Callable[[int], None],
        attempts: int = ATTEMPTS,
        max_wait: float = MAX_WAIT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.discard = discard
        self.attempts = attempts
        self.max_wait = max_wait
        self.sleep = sleep
        self.notes: list[str] = []

    def take_notes(self) -> list[str]:
        """What happened since the last call of this method (for one case of a suite)."""
        notes, self.notes = self.notes, []
        return notes

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """One call: the first answer that is not a retryable failure, or the last failure."""
        retries = 0
        while True:
            response = call_next(request)
            status = response.status_code
            if not retryable(status):
                return response
            if response.headers.get("x-should-retry") == "false":
                self.notes.append(
                    f"HTTP {status}; not retried: the server sent x-should-retry: false"
                )
                return response
            if retries == self.attempts:
                self.notes.append(f"HTTP {status}; gave up after {retries} retries")
                return response
            asked = requested_wait(response.headers)
            wait = asked if asked is not None else float(2**retries)
            if wait > self.max_wait:
                self.notes.append(
                    f"HTTP {status}; not retried: the server asked for a wait of {wait:g} s, "
                    f"more than the {self.max_wait:g} s allowed"
                )
                return response
            response.http_response.close()
            self.discard(status)
            retries += 1
            source = "as retry-after asked" if asked is not None else "back-off"
            self.notes.append(f"HTTP {status}; retry {retries} after {wait:g} s ({source})")
            self.sleep(wait)


def discard_last(cassette: Any) -> Callable[[int], None]:
    """Take the most recent exchange with this status out of a VCR cassette being recorded."""

    def discard(status: int) -> None:
        for index in range(len(cassette.data) - 1, -1, -1):
            response = cassette.data[index][1]
            if (response.get("status") or {}).get("code") == status:
                del cassette.data[index]
                return

    return discard
