"""A spending bound for live Claude calls: each call is priced before it is sent, and refused
when it could take the spend past the bound.

Before a Messages call `BudgetGuard` asks the API's count_tokens endpoint for the request's
input tokens (through the same client, key and retries), or, when that is not possible or
`estimate="characters"` is chosen, estimates them at four characters a token — labelled as an
estimate, since it can undercount. The call is admitted only if

    spent + reserved + input x max(input, cache-write rate) + max_tokens x output rate <= limit,

an upper bound on what it can cost (cache reads are cheaper than input, writes dearer, and the
reply is at most max_tokens). Its reservation is settled with the usage the answer reports.
A refused call raises `BudgetExhausted` before anything is sent and marks the calling thread,
so the eval runner can drop the case's row (the case is run by `--resume`) instead of scoring
a refusal. A model without a price cannot be bounded: its first call is refused.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any, Literal

import anthropic
from anthropic import APIRequest, APIResponse, CallNext

from pipeline.domain import Usage
from pipeline.providers.claude.prices import dollars, one_hour_writes, price_of

Estimate = Literal["count_tokens", "characters"]
MESSAGES_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
# Fields of a Messages body that count_tokens does not take.
_NOT_COUNTED = frozenset(
    {"max_tokens", "stream", "metadata", "temperature", "top_p", "top_k", "stop_sequences",
     "service_tier"}
)  # fmt: skip


class BudgetExhausted(Exception):
    """The next call could take the spend past the bound; nothing was sent."""


class Budget:
    """The bound, what has been spent and reserved, and which threads were refused."""

    def __init__(self, limit_usd: float, *, estimate: Estimate = "count_tokens") -> None:
        self.limit = limit_usd
        self.estimate = estimate
        self.spent = 0.0
        self.reserved = 0.0
        self.calls = 0
        self.counted = 0  # calls whose input came from count_tokens
        self.estimated = 0  # calls whose input was estimated from characters
        self.refusals = 0
        self._lock = threading.Lock()
        self._local = threading.local()

    @property
    def stopped(self) -> bool:
        """Whether any call has been refused."""
        return self.refusals > 0

    def start_item(self) -> None:
        """A new unit of work (one eval case) begins on this thread."""
        self._local.refused = False

    def refused_here(self) -> bool:
        """Whether a call of this thread's current work was refused."""
        return bool(getattr(self._local, "refused", False))

    def admit(self, model: str, input_tokens: int, max_tokens: int) -> float:
        """Reserve the most this call can cost, or raise BudgetExhausted."""
        price = price_of(model)
        if price is None:
            self._refuse()
            raise BudgetExhausted(
                f"{model} has no price in pipeline/providers/claude/prices.py, so its calls "
                "cannot be bounded"
            )
        rates = price.rates_for(Usage(input_tokens=input_tokens))
        bound = (
            input_tokens * max(rates.input, rates.cache_write) + max_tokens * rates.output
        ) / 1_000_000
        with self._lock:
            if self.spent + self.reserved + bound > self.limit:
                refused = True
            else:
                refused = False
                self.reserved += bound
        if refused:
            self._refuse()
            raise BudgetExhausted(
                f"the next call could cost up to {dollars(bound)}, past the budget of "
                f"{dollars(self.limit)} ({dollars(self.spent)} spent)"
            )
        return bound

    def settle(
        self, model: str, bound: float, usage: Usage | None, *, unread: bool = False
    ) -> None:
        """Replace a call's reservation with what it cost: nothing when it failed, the whole
        reservation when it was answered but its usage could not be read (`unread`)."""
        price = price_of(model)
        spent = price.cost(usage) if price is not None and usage is not None else 0.0
        if usage is None and unread:
            spent = bound
        with self._lock:
            self.reserved -= bound
            self.spent += spent
            self.calls += usage is not None

    def summary(self) -> dict[str, Any]:
        """What was spent, how the inputs were sized, and whether the bound stopped the run."""
        return {
            "max_cost_usd": self.limit,
            "spent_usd": round(self.spent, 6),
            "calls": self.calls,
            "input_counted_by_api": self.counted,
            "input_estimated_from_characters": self.estimated,
            "stopped": self.stopped,
        }

    def _refuse(self) -> None:
        with self._lock:
            self.refusals += 1
        self._local.refused = True


def character_estimate(body: dict[str, Any]) -> int:
    """Input tokens at four characters a token (an estimate; real tokenizers differ)."""
    counted = {k: v for k, v in body.items() if k not in _NOT_COUNTED}
    return math.ceil(len(json.dumps(counted, ensure_ascii=False)) / 4)


class BudgetGuard(anthropic.Middleware):
    """Prices each Messages call before it is sent; outermost, so retries are one call."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """Admit, send and settle one Messages call; other requests pass through."""
        body = request.json
        if not request.url.endswith(MESSAGES_PATH) or not isinstance(body, dict):
            return call_next(request)
        model = str(body.get("model", ""))
        bound = self.budget.admit(
            model, self._input_tokens(request, body, call_next), int(body.get("max_tokens", 0))
        )
        usage: Usage | None = None
        answered = False
        try:
            response = call_next(request)
            answered = response.status_code == 200
            if answered and not request.stream:  # never consume a stream
                usage = _usage(response)
            return response
        finally:
            self.budget.settle(model, bound, usage, unread=answered)

    def _input_tokens(self, request: APIRequest, body: dict[str, Any], call_next: CallNext) -> int:
        if self.budget.estimate == "count_tokens":
            counted = {k: v for k, v in body.items() if k not in _NOT_COUNTED}
            try:
                answer = call_next(request.copy(url=COUNT_TOKENS_PATH, body=counted))
                if answer.status_code == 200:
                    tokens = int(answer.http_response.json()["input_tokens"])
                    with self.budget._lock:
                        self.budget.counted += 1
                    return tokens
            except (anthropic.APIError, KeyError, ValueError, TypeError):
                pass  # the server has no count_tokens: fall back to the labelled estimate
        with self.budget._lock:
            self.budget.estimated += 1
        return character_estimate(body)


def _usage(response: APIResponse[Any]) -> Usage | None:
    try:
        usage = response.http_response.json()["usage"]
        return Usage(
            input_tokens=int(usage.get("input_tokens") or 0),
            output_tokens=int(usage.get("output_tokens") or 0),
            cache_read_input_tokens=int(usage.get("cache_read_input_tokens") or 0),
            cache_creation_input_tokens=int(usage.get("cache_creation_input_tokens") or 0),
            cache_creation_1h_input_tokens=one_hour_writes(usage),
        )
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
