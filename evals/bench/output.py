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

from evals.bench.targets import TARGETS, verdicts


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


_SHOWN = {"pass": "[green]pass[/]", "miss": "[bold red]miss[/]"}


def report(name: str, figures: dict[str, Any], as_json: bool, targets: str | None = None) -> bool:
    """Print the figures of benchmark `name` with their verdicts and `machine`; True when no
    figure misses its target. `targets` names the row of TARGETS when it is not `name`."""
    table_name = targets or name
    found = verdicts(table_name, figures)
    payload = {"bench": name, **figures, "verdicts": found, "machine": machine()}
    if as_json:
        print(json.dumps(payload, ensure_ascii=False))
        return "miss" not in found.values()
    table = Table(title=f"converse bench {name}", title_justify="left")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target")
    table.add_column("verdict")
    for key, value in figures.items():
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        target = TARGETS[table_name].get(key)
        table.add_row(key, shown, str(target or ""), _SHOWN.get(found.get(key, ""), ""))
    m = payload["machine"]
    table.caption = f"{m['cores']} cores, Python {m['python']}, {m['platform']}"
    Console().print(table)
    return "miss" not in found.values()
