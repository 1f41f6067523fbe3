"""A group's reading figures: accuracy per field pooled over its rows' messages, with 95%
Wilson intervals, and how many failed cases failed on the reading or on the decision."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evals.scorers.reading import FIELDS
from evals.scorers.reading_case import DECISION, READING, UNKNOWN
from evals.stats import wilson


def field_figure(correct: int, n: int) -> dict[str, Any]:
    """{n, correct, accuracy, ci95} of one field (accuracy None when nothing was scored)."""
    lo, hi = wilson(correct, n)
    return {
        "n": n,
        "correct": correct,
        "accuracy": round(correct / n, 4) if n else None,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def reading_accuracy(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]] | None:
    """Per field, over every message the rows scored against a gold reading; None when no row
    has a gold reading (or the rows replayed gold readings: nothing to score)."""
    counts = {field: [0, 0] for field in FIELDS}
    seen = False
    for row in rows:
        for message in row.get("reading_scores") or []:
            seen = True
            for field, ok in message["fields"].items():
                if field in counts:
                    counts[field][0] += 1
                    counts[field][1] += bool(ok)
    if not seen:
        return None
    return {field: field_figure(correct, n) for field, (n, correct) in counts.items()}


def failures_by(rows: Iterable[Mapping[str, Any]]) -> dict[str, int] | None:
    """How many failed rows failed on the reading, on the decision, or cannot be told
    (`unknown`, a failed case without a gold reading included); None when no row of the
    group was read against or with gold readings."""
    rows = list(rows)
    if not any(r.get("reading_scores") is not None or r.get("reading") for r in rows):
        return None
    out = {READING: 0, DECISION: 0, UNKNOWN: 0}
    for row in rows:
        if row["status"] == "fail":
            kind = row.get("failed_by")
            out[kind if kind in out else UNKNOWN] += 1
    return out
