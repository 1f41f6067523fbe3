"""The terminal tables `converse eval` prints: the per-group summary and report frames."""

from __future__ import annotations

import pandas as pd
from rich.table import Table

from evals.report.tables import reduced_text
from evals.runner import GroupResult
from pipeline.cli.common import shown


def summary_table(groups: list[GroupResult], title: str) -> Table:
    """The per-group summary (provider labels included)."""
    table = Table(title=title, title_justify="left")
    epochs = any(g.epochs > 1 for g in groups)
    for name in (
        "suite",
        "provider",
        "model",
        "prompt",
        "n",
        "passed",
        "errors",
        "critical",
        "accuracy",
        "95% CI",
        *(["epochs reduced"] if epochs else []),
        "gate",
    ):
        numeric = name in ("n", "passed", "errors", "critical", "accuracy")
        table.add_column(name, justify="right" if numeric else "left")
    for g in groups:
        acc = "—" if g.accuracy is None else f"{g.accuracy:.1%}"
        suite = g.suite + (f" ({g.sample_label()})" if g.sample else "")
        lo, hi = g.ci95
        # a suite without a gate still has the default error gate
        gate = "[green]pass[/]" if g.gate_passed else "[bold red]FAIL[/]"
        prompt = ", ".join(f"{k}={v}" for k, v in sorted(g.prompt.items())) or "-"
        table.add_row(
            shown(suite), shown(g.label), shown(g.model or "—"), shown(prompt), str(g.n),
            str(g.passed), str(g.errors), str(g.critical_failures), acc,
            f"{lo:.1%}–{hi:.1%}" if g.scored else "—",
            *([reduced_text(g) or "—"] if epochs else []), gate,
        )  # fmt: skip
    return table


def closure_table(suite: str, frame: pd.DataFrame) -> Table:
    """A closure suite's figures, the deterministic baseline beside each model."""
    return frame_table(f"{suite}: baseline beside model", frame)


def frame_table(title: str, frame: pd.DataFrame) -> Table:
    """A report frame as a terminal table."""
    table = Table(title=title, title_justify="left")
    for column in frame.columns:
        table.add_column(shown(str(column)))
    for row in frame.itertuples(index=False):
        table.add_row(*(shown(str(v)) for v in row))
    return table
