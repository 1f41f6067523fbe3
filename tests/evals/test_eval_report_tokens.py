"""The report's token table: input, output, cache reads and writes apart, a priced cost, cut-offs."""

from __future__ import annotations

from typing import Any

from evals.report import tables
from evals.report.frame import frame


def row(case: str, provider: str, cost: float | None, truncated: int = 0) -> dict[str, Any]:
    return {
        "suite": "s", "provider": provider, "variant": "active", "target": "classify",
        "case_id": case, "status": "pass", "epoch": 0, "latency_ms": 1.0,
        "tokens": {"input": 100, "output": 20, "cache_read": 2000, "cache_creation": 300},
        "cost_usd": cost, "truncated": truncated,
    }  # fmt: skip


def test_token_totals_count_cache_tokens_and_price_them() -> None:
    df = frame([
        row("a", "claude", 0.0125, truncated=1),
        row("b", "claude", 0.0025),
        row("a", "synthetic", None),
        row("b", "synthetic", 0.001),
    ])  # fmt: skip
    table = tables.latency_tokens(df).set_index("Provider")
    claude = table.loc["claude"]
    assert (claude["Input tokens"], claude["Output tokens"]) == (200, 40)
    assert (claude["Cache read"], claude["Cache write"]) == (4000, 600)
    assert claude["Cost (USD)"] == "0.0150"
    assert claude["Cut off"] == 1
    # one row without a price: no total is claimed for the group
    assert table.loc["synthetic"]["Cost (USD)"] == "unpriced"
