"""Concurrency and pace that follow the API's rate-limit answers, shared by a run's workers
(one limiter per SDK client; a run's classifier, responder and workers share one client).

Two controls, one middleware (innermost, so every HTTP attempt passes through them):

- **Pace.** Each answer's `anthropic-ratelimit-requests-limit` and
  `anthropic-ratelimit-input-tokens-limit` (per minute) set the spacing of call starts: at
  most `SAFETY` of the request limit, and of the token limit at the input tokens calls have
  been using (a moving average of the answers' usage). Before the first answer nothing is
  known and calls start as the workers send them.
- **Concurrency (AIMD).** At most `limit` calls are in flight. A 429 or 529 halves it (at most
  once per `COOLDOWN` seconds, so one burst of refusals counts once), and a 429's `retry-after`
  holds every other call until the wait is over (the refused call's own retry waits in
  `CallRetries`); each success adds 1/limit, so the limit grows by one per limit-many
  successes, up to `ceiling`. `history` records each change, for tests and benchmarks.

Requests other than Messages calls (count_tokens) pass through untouched: they have limits of
their own. Waits use an injectable clock and sleep.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import anthropic
from anthropic import APIRequest, APIResponse, CallNext

from pipeline.providers.claude.retries import requested_wait

SAFETY = 0.97  # a little under the limit: the server's clock and ours differ
COOLDOWN = 1.0
Sleep = Callable[[float], None]
Clock = Callable[[], float]


def _int(headers: Any, name: str) -> int | None:
    value = headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


class AdaptiveLimit(anthropic.Middleware):
    """AIMD concurrency plus header-driven pacing for one API endpoint."""

    def __init__(
        self,
        ceiling: int = 64,
        *,
        floor: int = 1,
        sleep: Sleep = time.sleep,
        clock: Clock = time.monotonic,
    ) -> None:
        self.ceiling = ceiling
        self.floor = floor
        self.limit = float(ceiling)
        self.sleep = sleep
        self.clock = clock
        self.in_flight = 0
        self.history: list[tuple[float, float]] = []  # (clock, limit) at each change
        self.refusals = 0
        self._cond = threading.Condition()
        self._next = 0.0  # the earliest start of the next call
        self._hold = 0.0  # no call starts before this (a retry-after)
        self._interval = 0.0
        self._decreased = -COOLDOWN
        self._tokens_avg: float | None = None
        self._local = threading.local()

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """Wait for a slot and this call's start time, send it, and learn from the answer."""
        if not request.url.endswith("/v1/messages"):
            return call_next(request)
        self._enter()
        try:
            response = call_next(request)
        except BaseException:
            self._leave()
            raise
        self._learn(response, read_usage=not request.stream)  # never consume a stream
        self._leave()
        return response

    def _enter(self) -> None:
        exempt = getattr(self._local, "exempt", False)
        self._local.exempt = False
        with self._cond:
            while self.in_flight >= max(self.floor, int(self.limit)):
                self._cond.wait()
            self.in_flight += 1
            now = self.clock()
            start = max(now, self._next, now if exempt else self._hold)
            self._next = start + self._interval
        if start > now:
            self.sleep(start - now)

    def _leave(self) -> None:
        with self._cond:
            self.in_flight -= 1
            self._cond.notify_all()

    def _learn(self, response: APIResponse[Any], *, read_usage: bool = True) -> None:
        headers = response.http_response.headers
        status = response.status_code
        with self._cond:
            self._pace(headers, response if status == 200 and read_usage else None)
            now = self.clock()
            if status in (429, 529):
                self.refusals += 1
                if now - self._decreased >= COOLDOWN:
                    self._decreased = now
                    self._set(max(float(self.floor), min(self.limit, self.in_flight) / 2))
                wait = requested_wait(headers) if status == 429 else None
                if wait:
                    self._hold = max(self._hold, now + wait)
                    self._local.exempt = True  # CallRetries already waits for this one
            elif status < 400 and self.limit < self.ceiling:
                self._set(min(float(self.ceiling), self.limit + 1.0 / self.limit))

    def _pace(self, headers: Any, ok: APIResponse[Any] | None) -> None:
        if ok is not None:
            tokens = _input_tokens(ok)
            if tokens is not None:
                avg = self._tokens_avg
                self._tokens_avg = tokens if avg is None else 0.9 * avg + 0.1 * tokens
        intervals = []
        rpm = _int(headers, "anthropic-ratelimit-requests-limit")
        if rpm:
            intervals.append(60.0 / (rpm * SAFETY))
        tpm = _int(headers, "anthropic-ratelimit-input-tokens-limit")
        if tpm and self._tokens_avg:
            intervals.append(60.0 * self._tokens_avg / (tpm * SAFETY))
        if intervals:
            self._interval = max(intervals)

    def _set(self, limit: float) -> None:
        if int(limit) != int(self.limit):
            self.history.append((self.clock(), limit))
        self.limit = limit
        self._cond.notify_all()


def _input_tokens(response: APIResponse[Any]) -> int | None:
    """The input tokens an answer reports that count against the input-token limit (uncached
    input and cache writes; cache reads do not count)."""
    try:
        usage = response.http_response.json()["usage"]
        return int(usage.get("input_tokens") or 0) + int(
            usage.get("cache_creation_input_tokens") or 0
        )
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
