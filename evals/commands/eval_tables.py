"""The terminal tables `converse eval` prints: the per-group summary and report frames."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pandas as pd
from rich import box
from rich.console import Console
from rich.table import Table

from evals.report.closure import closure_frames
from evals.report.robustness import robustness_frame
from evals.report.tables import reduced_text
from evals.runner import GroupResult
from evals.runner.results import RunDir
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


def print_summary(
    console: Console,
    run: RunDir,
    groups: list[GroupResult],
    ran: int,
    skipped: int,
    report: str | None,
    *,
    reading: Callable[[], None] = lambda: None,
) -> None:
    """The run's summary, the figures beside it (samples, flaky cases, closure, robustness, the
    reading by `reading`), the gates' verdict, and where the rows and the report are."""
    console.print(summary_table(groups, f"converse eval — run {run.run_id}"))
    for line in summary_legend(groups):
        console.print(shown(line), highlight=False, soft_wrap=True)
    seeds = sorted({g.sample.get("seed") for g in groups if g.sample}, key=str)
    if seeds:
        console.print(
            f"[bold]a sample[/] (seed {', '.join(map(str, seeds))}): each suite's cases were "
            "drawn stratified by tag (--sample); the "
            "accuracy, interval and gate are the sample's, an estimate of the whole suite",
            highlight=False,
        )
    flaky = [(g, g.flaky) for g in groups if g.flaky]
    for g, cases in flaky:
        console.print(
            f"flaky: {len(cases)} case(s) of {shown(g.suite)} on {shown(g.provider)} disagree "
            f"across epochs (first: {shown(cases[0])}); the report lists them",
            highlight=False,
            soft_wrap=True,
        )
    for suite, frame in closure_frames(groups):
        console.print(closure_table(suite, frame))
    robust = robustness_frame(groups)
    if not robust.empty:
        title = "robustness: each perturbation against the run as written"
        console.print(frame_table(title, robust))
    reading()
    failures = [f for g in groups for f in g.gate_failures]
    if failures:
        console.print("[bold red]gates failed:[/]", highlight=False)
        for failure in failures:
            console.print(f"  - {shown(failure)}", highlight=False)
    else:
        console.print("[green]every gate passed[/]")
    done = f"{ran} case runs now" + (f", {skipped} already done" if skipped else "")
    console.print(f"{done}; rows: {shown(run.results_path)}", highlight=False, soft_wrap=True)
    if report:
        console.print(f"report: {shown(report)}", highlight=False, soft_wrap=True)
