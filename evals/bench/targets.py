"""Every benchmark's targets, in one table (docs/benchmarks.md lists the same).

A figure with a target gets a verdict beside it, `pass` or `miss`; `converse bench NAME
--check` exits 1 when any figure misses. Figures not named here are printed without one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Target:
    """A bound on one figure: at most (`<=`) or at least (`>=`) `value`."""

    op: Literal["<=", ">="]
    value: float
    unit: str = ""

    def met(self, figure: float) -> bool:
        """Whether the measured figure is within the bound."""
        return figure <= self.value if self.op == "<=" else figure >= self.value

    def __str__(self) -> str:
        sign = "≤" if self.op == "<=" else "≥"
        return f"{sign} {self.value:,g}{' ' + self.unit if self.unit else ''}"


# Keyed by benchmark (as `converse bench NAME` names it; `search_cold` is `search --cold`),
# then by the figure's JSON key. Targets hold on this project's 2-core build machine.
TARGETS: dict[str, dict[str, Target]] = {
    "turn": {
        "median_ms": Target("<=", 2, "ms"),
        "p99_ms": Target("<=", 10, "ms"),
        "memory_load_ratio": Target("<=", 1.5),
    },
    "conversation": {
        "flatness_ratio": Target("<=", 1.5),
    },
    "ratelimit": {
        "throughput_pct": Target(">=", 90, "%"),
        "scored_wrong": Target("<=", 0),
        "refused_after_first_minute": Target("<=", 0),
    },
    # The rate-limit bench's run through Message Batches, against the same run done directly.
    "ratelimit_batch": {
        "batch_submissions": Target("<=", 1),
        "batch_direct_calls": Target("<=", 0),
        "batch_scored_wrong": Target("<=", 0),
        "rows_differing": Target("<=", 0),
    },
    # Memory of a live run on the loopback path: what the run holds does not grow with cases.
    "load": {
        "growth_mb": Target("<=", 25, "MB"),
    },
    "local": {
        "median_ms": Target("<=", 5, "ms"),
        "load_s": Target("<=", 1.0, "s"),
    },
    # The embedded generative model: no targets; the figures are read beside docs/local-llm.md.
    "llm": {},
    "search": {
        "p95_ms": Target("<=", 10, "ms"),
        "recall_at_5": Target(">=", 0.95),
        "query_p95_ms": Target("<=", 20, "ms"),
    },
    "search_cold": {
        "cold_s": Target("<=", 60, "s"),
    },
    # Specification 003: memory retrieval adds < 100 ms to classification.
    "memory-retrieval": {
        "p95_ms": Target("<=", 100, "ms"),
    },
    # Specification 004: edge creation <= 2 ms an edge.
    "edges": {
        "edge_ms": Target("<=", 2, "ms"),
    },
    # Issue 14: a filtered text query at 10,000 memories (the specification's bound: 150 ms).
    "memory-query": {
        "p95_ms": Target("<=", 20, "ms"),
    },
    "eval": {
        "cases_per_s": Target(">=", 200),
        "overhead_ratio": Target("<=", 1.3),
        "runs_store_overhead_pct": Target("<=", 5, "%"),
    },
    "cli": {
        "help_ms": Target("<=", 150, "ms"),
        "subcommand_help_ms": Target("<=", 150, "ms"),
        "list_ms": Target("<=", 500, "ms"),
        "chat_turn_ms": Target("<=", 2_500, "ms"),
    },
    # `converse view`: the first page within a second; a run page of 2,000 rows in 300 ms (p95).
    "view": {
        "start_to_first_page_ms": Target("<=", 1_000, "ms"),
        "run_page_p95_ms": Target("<=", 300, "ms"),
    },
}


def verdicts(bench: str, figures: dict[str, object]) -> dict[str, str]:
    """`pass` or `miss` for every figure of `bench` that has a target."""
    out: dict[str, str] = {}
    for key, target in TARGETS[bench].items():
        value = figures.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = "pass" if target.met(float(value)) else "miss"
    return out
