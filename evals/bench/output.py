"""How every benchmark reports: a readable table, or one JSON object with --json."""

from __future__ import annotations

import json
import os
import platform
import statistics
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[max(0, min(98, round(q) - 1))]


def report(
    name: str, figures: dict[str, Any], as_json: bool, targets: dict[str, str] | None = None
) -> None:
    """Print the figures of benchmark `name`, with `machine` added."""
    payload = {"bench": name, **figures, "machine": machine()}
    if as_json:
        print(json.dumps(payload, ensure_ascii=False))
        return
    table = Table(title=f"converse bench {name}", title_justify="left")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target")
    for key, value in figures.items():
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        table.add_row(key, shown, (targets or {}).get(key, ""))
    m = payload["machine"]
    table.caption = f"{m['cores']} cores, Python {m['python']}, {m['platform']}"
    Console().print(table)
