"""A writing suite's figure: the share of new memory items, pooled over its cases, that pass
the writing constraints as first written (specification 004 asks for at least 95%), with a
95% Wilson interval, per write path, and the failing items themselves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evals.dataset.models import Gate
from evals.stats import wilson


def writing_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Items, first-pass passes, the rate and its interval, per path, and every failure."""
    items = passed = 0
    by_path: dict[str, list[int]] = {}
    failing: list[dict[str, Any]] = []
    for row in rows:
        if row.get("status") == "error":
            continue
        got = row.get("got") or {}
        path = str(got.get("path", "?"))
        for item in got.get("items", []):
            ok = not item.get("problems")
            items += 1
            passed += ok
            counts = by_path.setdefault(path, [0, 0])
            counts[0] += 1
            counts[1] += ok
            if not ok:
                failing.append(
                    {
                        "case": row.get("case_id"),
                        "path": path,
                        "text": item.get("text"),
                        "problems": item.get("problems"),
                        "stored": item.get("stored"),
                    }
                )
    lo, hi = wilson(passed, items)
    return {
        "items": items,
        "first_pass": passed,
        "first_pass_rate": round(passed / items, 4) if items else None,
        "first_pass_ci95": [round(lo, 4), round(hi, 4)],
        "by_path": {
            path: {"items": n, "first_pass": ok, "rate": round(ok / n, 4)}
            for path, (n, ok) in sorted(by_path.items())
        },
        "failing": failing,
    }


def writing_gate_failures(where: str, metrics: Mapping[str, Any], gate: Gate | None) -> list[str]:
    """Why the first-pass rate misses the gate's bound (empty when it holds or is unset)."""
    if gate is None or gate.first_pass_rate is None:
        return []
    rate = metrics.get("first_pass_rate")
    if rate is None:
        return [f"{where}: no new item was written, so no first-pass rate"]
    if rate < gate.first_pass_rate:
        return [f"{where}: first-pass rate {rate:.3f} < gate {gate.first_pass_rate:.3f}"]
    return []
