"""What Claude calls cost: a versioned price table per model, in US dollars per million tokens.

Source: the pricing page of the Claude documentation
(https://platform.claude.com/docs/en/about-claude/pricing, "Model pricing", read 2026-11-26).
Cache writes are priced at the 5-minute rate: `cache_control: {"type": "ephemeral"}` without a
`ttl` is the 5-minute cache. A model not in the table has no price (None), never a guessed one.
When the page changes, add a new table with a new PRICES_VERSION rather than editing this one in
place, so a report says which prices it used.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.domain import Usage

PRICES_VERSION = "2026-11-26"
PRICES_SOURCE = "https://platform.claude.com/docs/en/about-claude/pricing"


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    cache_write: float  # 5-minute cache writes
    cache_read: float  # cache hits and refreshes
    output: float

    def cost(self, usage: Usage) -> float:
        """The cost of one call's (or many calls') usage, in dollars."""
        return (
            usage.input_tokens * self.input
            + usage.cache_creation_input_tokens * self.cache_write
            + usage.cache_read_input_tokens * self.cache_read
            + usage.output_tokens * self.output
        ) / 1_000_000


_OPUS_45 = Price(5.0, 6.25, 0.50, 25.0)
_OPUS_4 = Price(15.0, 18.75, 1.50, 75.0)
_SONNET = Price(3.0, 3.75, 0.30, 15.0)

# Model id prefix -> price; dated ids match their alias by prefix, the longest prefix wins.
PRICES: dict[str, Price] = {
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
}


def price_of(model: str) -> Price | None:
    """The model's price, or None when the table does not list it."""
    matches = [prefix for prefix in PRICES if model.startswith(prefix)]
    return PRICES[max(matches, key=len)] if matches else None


def cost(model: str, usage: Usage) -> float | None:
    """Dollars for this usage on this model; None for a model without a price."""
    price = price_of(model)
    return None if price is None else price.cost(usage)


def total_cost(costs: list[float | None]) -> float | None:
    """The sum of several calls' costs; None when any of them has no price."""
    if not costs or any(c is None for c in costs):
        return None
    return sum(c for c in costs if c is not None)
