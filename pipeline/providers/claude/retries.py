"""Retries and a request rate for live Claude calls, as SDK middleware with an injectable clock.

The SDK's own retries are off (`max_retries=0` on the client); `CallRetries` retries instead, so
the waits are ours to test and the error text can say how often a call was really retried:

- a 408, 409, 429 or 5xx answer, a timeout or a lost connection is retried at most `attempts`
  times (429 and 529, rate limit and overload, at most `limited_attempts` times); an answer
  with `x-should-retry: false` never is (the SDK's rule);
- the wait is what `retry-after-ms` / `retry-after` asks for, else 0.5 s doubling up to 8 s;
  a server asking for more than `max_wait` seconds is not retried (the call fails at once
  rather than hold a run for minutes);
- the final answer carries `x-converse-retries: N` (and a final exception the attribute
  `converse_retries`), which `calls.describe_api_error` reads.

`RateLimit` spaces the start of calls at least 60/rpm seconds apart across every thread of the
process (CONVERSE_CLAUDE_RPM), and after a 429 with retry-after holds every call, not only the
one retried, until the wait is over.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import anthropic
from anthropic import APIRequest, APIResponse, CallNext

RETRIES_HEADER = "x-converse-retries"
MAX_WAIT = 60.0
Sleep = Callable[[float], None]
Clock = Callable[[], float]


def retryable(status: int) -> bool:
    """The statuses the SDK itself retries: timeouts, conflicts, rate limits, server errors."""
    return status in (408, 409, 429) or status >= 500


def requested_wait(headers: Any) -> float | None:
    """The wait the server asked for, in seconds (retry-after-ms, then retry-after)."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(float(value) / scale, 0.0)
            except ValueError:
                continue  # an HTTP date: fall back to the back-off
    return None


def backoff(retries: int) -> float:
    """The SDK's back-off without jitter: 0.5 s, 1 s, 2 s ... at most 8 s."""
    return float(min(0.5 * 2**retries, 8.0))


class CallRetries(anthropic.Middleware):
    """Whole-call retries for live calls, honouring retry-after and x-should-retry."""

    def __init__(
        self,
        attempts: int,
        *,
        max_wait: float = MAX_WAIT,
        sleep: Sleep = time.sleep,
        limited_attempts: int | None = None,
    ) -> None:
        self.attempts = attempts
        # 429 and 529 answers say "later", not "wrong": they may get more retries than others.
        self.limited_attempts = attempts if limited_attempts is None else limited_attempts
        self.max_wait = max_wait
        self.sleep = sleep

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """One call: the first answer that is not a retryable failure, or the last failure."""
        retries = 0
        while True:
            try:
                response = call_next(request)
            except anthropic.APIConnectionError as exc:  # timeouts included
                if retries >= self.attempts:
                    exc.converse_retries = retries  # type: ignore[attr-defined]
                    raise
                self.sleep(backoff(retries))
                retries += 1
                continue
            status = response.status_code
            headers = response.http_response.headers
            wait = requested_wait(headers)
            budget = self.limited_attempts if status in (429, 529) else self.attempts
            if (
                not retryable(status)
                or headers.get("x-should-retry") == "false"
                or retries >= budget
                or (wait is not None and wait > self.max_wait)
            ):
                headers[RETRIES_HEADER] = str(retries)
                return response
            response.http_response.close()
            self.sleep(wait if wait is not None else backoff(retries))
            retries += 1


class RateLimit(anthropic.Middleware):
    """At most `per_minute` call starts a minute, spaced evenly; a 429's retry-after holds all."""

    def __init__(
        self, per_minute: int, *, sleep: Sleep = time.sleep, clock: Clock = time.monotonic
    ):
        self.interval = 60.0 / per_minute
        self.sleep = sleep
        self.clock = clock
        self._lock = threading.Lock()
        self._next = 0.0  # the earliest start of the next call
        self._hold = 0.0  # no call starts before this (a server's retry-after)

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """Wait for this call's turn, make it, and note any wait the server asks for."""
        with self._lock:
            now = self.clock()
            start = max(now, self._next, self._hold)
            self._next = start + self.interval
        if start > now:
            self.sleep(start - now)
        response = call_next(request)
        if response.status_code == 429:
            wait = requested_wait(response.http_response.headers)
            if wait:
                with self._lock:
                    self._hold = max(self._hold, self.clock() + wait)
        return response


_limits: dict[tuple[str, int], RateLimit] = {}
_limits_lock = threading.Lock()


def shared_rate_limit(key: str, per_minute: int) -> RateLimit:
    """One limiter per (base URL, rate) for the whole process: every client, every thread."""
    with _limits_lock:
        found = _limits.get((key, per_minute))
        if found is None:
            found = _limits[(key, per_minute)] = RateLimit(per_minute)
        return found
