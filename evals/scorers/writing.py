"""Scoring a write path's new items: each must pass the writing constraints as first written
(specification 004: self-contained, in the voice its kind is stored in, at most 280
characters), and the path must write at least `min_items`. The suite's figure is the share of
items, pooled over cases, that pass on the first pass (evals/runner/summary.py)."""

from __future__ import annotations

from typing import Any

from evals.dataset.writing import WritingExpect
from evals.scorers.base import Check, Score, Scorer


def score_writing(expect: WritingExpect, got: dict[str, Any]) -> Score:
    """One check per item, and one on the count."""
    items = list(got.get("items", []))
    checks = [
        Check(
            "items written",
            f">= {expect.min_items}",
            len(items),
            len(items) >= expect.min_items,
            "" if len(items) >= expect.min_items else f"only {len(items)} items were written",
        )
    ]
    for number, item in enumerate(items, start=1):
        problems = list(item.get("problems", []))
        why = f"item {number} {item.get('text')!r}: {'; '.join(problems)}"
        checks.append(
            Check(
                f"item {number} passes on the first pass",
                "no writing rule broken",
                item.get("text"),
                not problems,
                "" if not problems else why,
            )
        )
    return Score("writing", 1, expect.model_dump(), got, tuple(checks))


WRITING = Scorer("writing", 1, score_writing)
