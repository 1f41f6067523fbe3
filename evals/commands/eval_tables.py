"""The terminal tables `converse eval` prints: the per-group summary and report frames."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from rich import box
from rich.table import Table

from evals.report.tables import reduced_text
from evals.runner import GroupResult
from pipeline.cli.common import shown

# The summary fits an 80-column terminal, one line a row: the provider's long label, model
# and prompt versions are said once each, under the table (`summary_legend`).
PROVIDER_WIDTH = 10


def summary_table(groups: list[GroupResult], title: str) -> Table:
    """The per-group summary: suite, provider name, passed of n, errors, critical failures,
    accuracy and its 95% interval, the epochs' reduced score when a case ran several, gate. A
    sample, and the prompt variant of a suite run with several, are named under the suite."""
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0)
    )
    epochs = any(g.epochs > 1 for g in groups)
    names = ("suite", "provider", "passed", "err", "crit", "acc %", "95% CI")
    for name in (*names, *(["reduced"] if epochs else []), "gate"):
        numeric = name in ("passed", "err", "crit", "acc %")
        table.add_column(name, justify="right" if numeric else "left", no_wrap=name != "suite")
    variants = Counter((g.suite, g.provider) for g in groups)
    for g in groups:
        acc = "—" if g.accuracy is None else f"{g.accuracy * 100:.1f}"
        # a sample's size under the suite (its seed: the note under the table)
        suite = g.suite + (f"\n  sample {g.sample['n']} of {g.sample['of']}" if g.sample else "")
        if variants[(g.suite, g.provider)] > 1:
            suite += "\n  " + _prompt(g)
        lo, hi = g.ci95
        # a suite without a gate still has the default error gate
        gate = "[green]pass[/]" if g.gate_passed else "[bold red]FAIL[/]"
        table.add_row(
            shown(suite), shown(abbreviate(g.provider, PROVIDER_WIDTH)), f"{g.passed}/{g.n}",
            str(g.errors), str(g.critical_failures), acc,
            f"{lo * 100:.1f}–{hi * 100:.1f}" if g.scored else "—",
            *([reduced_text(g) or "—"] if epochs else []), gate,
        )  # fmt: skip
    return table


def summary_legend(groups: list[GroupResult]) -> list[str]:
    """One line per provider of the summary: its label, model and prompt versions."""
    lines = []
    for provider in dict.fromkeys(g.provider for g in groups):
        mine = [g for g in groups if g.provider == provider]
        models = ", ".join(dict.fromkeys(g.model for g in mine if g.model)) or "—"
        prompts = ", ".join(dict.fromkeys(p for g in mine if (p := _prompt(g)) != "-")) or "-"
        lines.append(f"{provider}: {mine[0].label}; model {models}; prompts {prompts}")
    return lines


def _prompt(group: GroupResult) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(group.prompt.items())) or "-"


def abbreviate(text: str, width: int) -> str:
    """The text cut to `width` characters, the last an ellipsis when it was longer."""
    return text if len(text) <= width else text[: width - 1] + "…"


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
