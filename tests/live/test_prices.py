"""The dated price table: a row for every default and capability-table model, tiers and batch
rates, and reports that never show an unknown price as 0."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from evals.report.costs import cost_by
from pipeline.domain import Usage
from pipeline.providers.claude.models import (
    DEFAULT_CLASSIFIER_MODEL,
    DEFAULT_RESPONDER_MODEL,
    MODELS,
)
from pipeline.providers.claude.prices import (
    PRICES,
    cost,
    price_of,
    shown_cost,
    unpriced_models,
)

MILLION = Usage(
    input_tokens=1_000_000,
    output_tokens=1_000_000,
    cache_read_input_tokens=1_000_000,
    cache_creation_input_tokens=1_000_000,
)


def test_every_default_and_capability_model_has_a_price_with_its_source() -> None:
    assert unpriced_models() == []
    for model in [DEFAULT_CLASSIFIER_MODEL, DEFAULT_RESPONDER_MODEL, *MODELS]:
        price = price_of(model)
        assert price is not None and price.source.startswith("https://"), model


def test_default_models_cost_what_the_table_says_worked_by_hand() -> None:
    # one classify call on Haiku 5.5: 1,200 input, 300 cache read, 2,000 cache write, 80 out
    usage = Usage(
        input_tokens=1200,
        output_tokens=80,
        cache_read_input_tokens=300,
        cache_creation_input_tokens=2000,
    )
    by_hand = (1200 * 0.10 + 80 * 0.50 + 300 * 0.01 + 2000 * 0.125) / 1e6
    assert cost("claude-haiku-5-5", usage) == pytest.approx(by_hand)
    assert cost("claude-sonnet-5-5", MILLION) == pytest.approx(2 + 10 + 0.10 + 2.50)
    assert cost("claude-opus-5-5", MILLION) == pytest.approx(4 + 20 + 0.20 + 5)
    assert cost("claude-fable-5-1", MILLION) == pytest.approx(10 + 50 + 0.25 + 12.50)


def test_a_long_haiku_prompt_pays_the_higher_tier_on_every_token() -> None:
    long = Usage(input_tokens=100_001, output_tokens=1000)
    assert cost("claude-haiku-5-5", long) == pytest.approx((100_001 * 0.50 + 1000 * 2.50) / 1e6)
    short = Usage(input_tokens=100_000, output_tokens=1000)
    assert cost("claude-haiku-5-5", short) == pytest.approx((100_000 * 0.10 + 1000 * 0.50) / 1e6)


def test_batch_halves_every_part_cache_reads_and_writes_included() -> None:
    # the pricing page: prompt-caching multipliers stack with the batch discount
    usage = Usage(input_tokens=10**6, output_tokens=10**6, cache_read_input_tokens=10**6,
                  cache_creation_input_tokens=10**6)  # fmt: skip
    assert cost("claude-haiku-4-5", usage, batch=True) == pytest.approx((1 + 5 + 0.10 + 1.25) / 2)


def test_one_hour_cache_writes_pay_twice_the_input_rate() -> None:
    usage = Usage(cache_creation_input_tokens=3 * 10**6, cache_creation_1h_input_tokens=10**6)
    # 2M five-minute writes at $6.25, 1M one-hour writes at $10 (2 x $5 input)
    assert cost("claude-opus-4-5", usage) == pytest.approx(2 * 6.25 + 10.0)
    assert cost("claude-opus-4-5", usage, batch=True) == pytest.approx((2 * 6.25 + 10.0) / 2)


def test_the_one_hour_split_is_read_from_the_response_usage() -> None:
    from pipeline.providers.claude.calls import WireUsage

    wire = WireUsage.model_validate(
        {"input_tokens": 5, "output_tokens": 1, "cache_creation_input_tokens": 300,
         "cache_creation": {"ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 100}}
    )  # fmt: skip
    assert wire.one_hour_writes() == 100
    assert WireUsage.model_validate({"cache_creation": "junk"}).one_hour_writes() == 0


def test_an_unknown_model_is_unpriced_never_zero() -> None:
    assert cost("synthetic-fixture", MILLION) is None
    assert shown_cost(None) == "unpriced"
    assert shown_cost(0.0) == "0.0000"
    assert all(p.input > 0 and p.output > 0 for p in PRICES.values())


def test_cost_per_suite_provider_and_prompt_keeps_unpriced_rows_apart() -> None:
    df = pd.DataFrame(
        {
            "suite": ["a", "a", "b"],
            "provider_label": ["claude", "claude", "local"],
            "prompt": ["classifier=v1", "classifier=v2", "classifier=v1"],
            "input_tokens": [10, 20, 30],
            "output_tokens": [1, 2, 3],
            "cache_read_tokens": [0, 0, 0],
            "cache_write_tokens": [0, 0, 0],
            "cost_usd": [0.5, 0.25, math.nan],
        }
    )
    suites = cost_by(df, "suite").set_index("Suite")
    assert suites.loc["a", "Cost (USD)"] == "0.7500"
    assert suites.loc["b", "Cost (USD)"] == "unpriced"
    assert suites.loc["b", "Unpriced rows"] == 1
    prompts = cost_by(df, "prompt").set_index("Prompt")
    assert prompts.loc["classifier=v1", "Cost (USD)"] == "unpriced"
    assert prompts.loc["classifier=v1", "Priced part (USD)"] == "0.5000"
    assert prompts.loc["classifier=v2", "Input tokens"] == 20
    providers = cost_by(df, "provider_label").set_index("Provider")
    assert providers.loc["claude", "Rows"] == 2
