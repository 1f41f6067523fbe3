"""What Claude calls cost: a dated price table per model, in US dollars per million tokens.

Every row names the page its numbers were read from (`Price.source`); where pages disagree the
row's `note` says which figure is used and why. Cache writes are priced at the 5-minute rate
(`cache_control: {"type": "ephemeral"}` without a `ttl` is the 5-minute cache), except those the
API reports as one-hour writes (`usage.cache_creation.ephemeral_1h_input_tokens`), which pay
the pricing page's "1h cache writes" column: twice the base input rate. A model not in the
table has no price (None, shown as "unpriced"), never a guessed one; `unpriced_models()` lists
the default and capability-table models that lack one, and a test keeps that list empty.
When a page changes, add rows with a new PRICES_VERSION rather than editing these in place, so a
report says which prices it used. The Message Batches API halves every token of a batched
call — input, output, cache writes and cache reads (`BATCH_DISCOUNT`): the pricing page's
prompt-caching multipliers stack with the batch discount, so a batched cache read costs
0.5 × 0.1 of the base input rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.domain import Usage

PRICES_VERSION = "2026-11-26"
PRICES_SOURCE = "https://platform.claude.com/docs/en/about-claude/pricing"
BATCH_DISCOUNT = 0.5
# A one-hour cache write costs this many times the base input rate (the pricing page's
# "1h cache writes" column: $10 for a $5 input, $20 for $10).
ONE_HOUR_WRITE = 2.0

_DOCS = "https://platform.claude.com/docs"


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens, the page they come from, and above how many prompt tokens
    (input + cache reads + cache writes of one call) the `long` rates apply instead."""

    input: float
    cache_write: float  # 5-minute cache writes
    cache_read: float  # cache hits and refreshes
    output: float
    source: str = PRICES_SOURCE
    note: str = ""
    long_above: int | None = None
    long: Price | None = None

    def rates_for(self, usage: Usage) -> Price:
        """The rates a call with this usage pays: the long-prompt tier past its threshold."""
        prompt = (
            usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
        )
        if self.long is not None and self.long_above is not None and prompt > self.long_above:
            return self.long
        return self

    @property
    def cache_write_1h(self) -> float:
        """One-hour cache writes: twice the base input rate."""
        return self.input * ONE_HOUR_WRITE

    def cost(self, usage: Usage, *, batch: bool = False) -> float:
        """The cost of one call's usage in dollars (summed usage is priced as one call: a tier
        is chosen on the sum, which can only overstate a tiered model's cost). A batched call
        pays BATCH_DISCOUNT of every part, cache writes and reads included."""
        rates = self.rates_for(usage)
        one_hour = min(usage.cache_creation_1h_input_tokens, usage.cache_creation_input_tokens)
        total = (
            usage.input_tokens * rates.input
            + usage.output_tokens * rates.output
            + (usage.cache_creation_input_tokens - one_hour) * rates.cache_write
            + one_hour * rates.cache_write_1h
            + usage.cache_read_input_tokens * rates.cache_read
        )
        return total * (BATCH_DISCOUNT if batch else 1.0) / 1_000_000


_OPUS_45 = Price(5.0, 6.25, 0.50, 25.0)
_OPUS_4 = Price(15.0, 18.75, 1.50, 75.0)
_SONNET = Price(3.0, 3.75, 0.30, 15.0)

_HAIKU_55_LONG = Price(
    0.50, 0.625, 0.05, 2.50, source=f"{_DOCS}/en/models/haiku-5-5/overview"
)  # fmt: skip

# Model id prefix -> price; dated ids match their alias by prefix, the longest prefix wins.
PRICES: dict[str, Price] = {
    "claude-fable-5-1": Price(
        10.0, 12.50, 0.25, 50.0,
        source=f"{_DOCS}/en/models/fable-5-1/overview",
        note=(
            "input, output and the cache read ($0.25, a quarter of Fable 5's $1.00) from the "
            "overview page; the 5-minute cache write ($12.50, 1.25x input) is not on the "
            "overview excerpt read here and is taken from the pricing page as quoted by "
            "BerriAI/litellm discussion 39163"
        ),
    ),
    "claude-opus-5-5": Price(
        4.0, 5.0, 0.20, 20.0, source=f"{_DOCS}/zh-CN/models/opus-5-5/overview"
    ),
    "claude-sonnet-5-5": Price(
        2.0, 2.50, 0.10, 10.0,
        source=PRICES_SOURCE,
        note=(
            "the Sonnet 5.5 overview page (zh-CN copy) lists a $0.20 cache read; the pricing "
            "page cut it to $0.10 on 2026-10-07 (as re-read by kurofune/claudit v1.9.2 and "
            "TheKrush/PromptFuel v1.0.23): $0.10, the later figure, is used"
        ),
    ),
    "claude-haiku-5-5": Price(
        0.10, 0.125, 0.01, 0.50,
        source=f"{_DOCS}/zh-CN/models/haiku-5-5/overview",
        note="prompts over 100,000 tokens pay $0.50 / $0.625 / $0.05 / $2.50",
        long_above=100_000,
        long=_HAIKU_55_LONG,
    ),
    "claude-opus-4-6": _OPUS_45,
    "claude-opus-4-5": _OPUS_45,
    "claude-opus-4-1": _OPUS_4,
    "claude-opus-4": _OPUS_4,
    "claude-sonnet-4-6": _SONNET,
    "claude-sonnet-4-5": _SONNET,
    "claude-sonnet-4": _SONNET,
    "claude-3-7-sonnet": _SONNET,
    "claude-haiku-4-5": Price(1.0, 1.25, 0.10, 5.0),
    "claude-3-5-haiku": Price(0.80, 1.0, 0.08, 4.0),
    "claude-3-haiku": Price(0.25, 0.30, 0.03, 1.25),
}  # fmt: skip


def one_hour_writes(usage: Any) -> int:
    """`usage.cache_creation.ephemeral_1h_input_tokens` of a Messages response (0 if absent)."""
    split = usage.get("cache_creation") if isinstance(usage, dict) else None
    value = split.get("ephemeral_1h_input_tokens") if isinstance(split, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def price_of(model: str) -> Price | None:
    """The model's price, or None when the table does not list it."""
    matches = [prefix for prefix in PRICES if model.startswith(prefix)]
    return PRICES[max(matches, key=len)] if matches else None


def cost(model: str, usage: Usage, *, batch: bool = False) -> float | None:
    """Dollars for this usage on this model; None for a model without a price."""
    price = price_of(model)
    return None if price is None else price.cost(usage, batch=batch)


def total_cost(costs: list[float | None]) -> float | None:
    """The sum of several calls' costs; None when any of them has no price."""
    if not costs or any(c is None for c in costs):
        return None
    return sum(c for c in costs if c is not None)


def dollars(value: float) -> str:
    """A dollar amount to the cent, or to as many places (up to six) as it needs not to be
    rounded away: "$1.50", "$0.002", "$0.000125"."""
    if round(value, 2) == round(value, 6):
        return f"${value:,.2f}"
    return "$" + f"{value:,.6f}".rstrip("0")


def shown_cost(value: float | None) -> str:
    """A cost as reports print it: dollars, or "unpriced" (never 0) when a price is missing."""
    return "unpriced" if value is None else f"{value:.4f}"


def unpriced_models() -> list[str]:
    """Default and capability-table models the price table has no row for."""
    from pipeline.providers.claude.models import (
        DEFAULT_CLASSIFIER_MODEL,
        DEFAULT_RESPONDER_MODEL,
        MODELS,
    )

    wanted = [DEFAULT_CLASSIFIER_MODEL, DEFAULT_RESPONDER_MODEL, *MODELS]
    return [m for m in dict.fromkeys(wanted) if price_of(m) is None]
