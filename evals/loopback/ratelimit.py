"""Rate limits for the loopback server, enforced as the Messages API describes its own.

Requests and input tokens a minute are each a token bucket that refills continuously
(limit / 60 a second) up to `burst` (default: one minute's worth). A request that finds either
bucket short is answered 429 `rate_limit_error` with `retry-after` (whole seconds, rounded up,
until the bucket holds enough); every answer carries the `anthropic-ratelimit-requests-*` and
`anthropic-ratelimit-input-tokens-*` headers (limit, remaining, reset as RFC 3339). `overloaded`
marks a span of request numbers answered 529 `overloaded_error`, as an API under load answers.
Each request's time and verdict is logged, so a benchmark can check that nothing over the limit
was accepted and count the 429s after the first minute.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

Clock = Callable[[], float]


@dataclass
class _Bucket:
    limit: int  # per minute
    capacity: float
    level: float
    at: float

    def refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.at) * self.limit / 60.0)
        self.at = now

    def wait_for(self, amount: float) -> float:
        """Seconds until `amount` is in the bucket (0 when it is)."""
        short = amount - self.level
        return 0.0 if short <= 0 else short * 60.0 / self.limit

    def full_in(self) -> float:
        return (self.capacity - self.level) * 60.0 / self.limit


@dataclass(frozen=True)
class Verdict:
    """A request's fate: accepted, or the status and wait it is answered with."""

    at: float
    status: int  # 200 (passed on to the scripted answer), 429 or 529
    tokens: int
    headers: dict[str, str]


class RateLimits:
    """Requests and input tokens a minute, shared by every request the server answers."""

    def __init__(
        self,
        requests_per_minute: int,
        input_tokens_per_minute: int,
        *,
        burst_seconds: float = 60.0,
        overloaded: range | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        now = clock()
        self.clock = clock
        self.requests = _Bucket(
            requests_per_minute, requests_per_minute * burst_seconds / 60.0, 0.0, now
        )
        self.tokens = _Bucket(
            input_tokens_per_minute, input_tokens_per_minute * burst_seconds / 60.0, 0.0, now
        )
        self.requests.level = self.requests.capacity
        self.tokens.level = self.tokens.capacity
        self.overloaded = overloaded
        self.log: list[Verdict] = []
        self._count = 0
        self._lock = threading.Lock()

    def take(self, input_tokens: int) -> Verdict:
        """Admit one request of `input_tokens`, or say how it is refused."""
        with self._lock:
            now = self.clock()
            self._count += 1
            for bucket in (self.requests, self.tokens):
                bucket.refill(now)
            if self.overloaded is not None and self._count in self.overloaded:
                verdict = Verdict(now, 529, input_tokens, self._headers(now))
            else:
                wait = max(self.requests.wait_for(1), self.tokens.wait_for(input_tokens))
                headers = self._headers(now)
                if wait > 0:
                    headers["retry-after"] = str(max(1, math.ceil(wait)))
                    verdict = Verdict(now, 429, input_tokens, headers)
                else:
                    self.requests.level -= 1
                    self.tokens.level -= input_tokens
                    verdict = Verdict(now, 200, input_tokens, self._headers(now))
            self.log.append(verdict)
            return verdict

    def _headers(self, now: float) -> dict[str, str]:
        wall = datetime.now(UTC)
        headers: dict[str, str] = {}
        for name, bucket in (("requests", self.requests), ("input-tokens", self.tokens)):
            reset = wall + timedelta(seconds=bucket.full_in())
            headers[f"anthropic-ratelimit-{name}-limit"] = str(bucket.limit)
            headers[f"anthropic-ratelimit-{name}-remaining"] = str(max(0, int(bucket.level)))
            headers[f"anthropic-ratelimit-{name}-reset"] = reset.isoformat(timespec="seconds")
        return headers

    def accepted_times(self) -> list[float]:
        """When each accepted request arrived (clock seconds)."""
        with self._lock:
            return [v.at for v in self.log if v.status == 200]
