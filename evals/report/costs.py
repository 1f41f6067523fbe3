"""What a run cost, three ways: per suite, per provider and per prompt version.

A group with any unpriced row (a model the price table does not list: synthetic answers, local
providers) shows "unpriced" for its cost, never 0, beside the priced part and the count of rows
without a price, so a partly priced total is never read as the whole.
"""

from __future__ import annotations

import pandas as pd

from pipeline.providers.claude import shown_cost

_BY = {"suite": "Suite", "provider_label": "Provider", "prompt": "Prompt"}
_TOKENS = {
    "input_tokens": "Input tokens",
    "output_tokens": "Output tokens",
    "cache_read_tokens": "Cache read",
    "cache_write_tokens": "Cache write",
}


def cost_by(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """One row per value of `column` (suite, provider_label or prompt): tokens and cost."""
    records = []
    for key, group in df.groupby(column, sort=True):
        unpriced = int(group["cost_usd"].isna().sum())
        priced = group["cost_usd"].dropna()
        record: dict[str, object] = {_BY[column]: key}
        if column != "provider_label":  # every table names what produced its numbers
            record["Providers"] = ", ".join(sorted(set(group["provider_label"])))
        record["Rows"] = len(group)
        record |= {name: int(group[col].sum()) for col, name in _TOKENS.items()}
        record["Cost (USD)"] = shown_cost(None if unpriced else float(priced.sum()))
        record["Priced part (USD)"] = f"{priced.sum():.4f}"
        record["Unpriced rows"] = unpriced
        records.append(record)
    return pd.DataFrame.from_records(records)


def cost_tables(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The three breakdowns, titled."""
    return [
        ("Per suite", cost_by(df, "suite")),
        ("Per provider", cost_by(df, "provider_label")),
        ("Per prompt version", cost_by(df, "prompt")),
    ]
