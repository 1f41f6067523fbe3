"""`converse power`: before a run, how many cases a suite needs to detect a change of a size."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import typer
from rich.table import Table

from evals.commands.common import handles_errors, stdout
from evals.power import (
    ALPHA,
    DEFAULT_DISCORDANCE,
    METHOD,
    POWER,
    mcnemar_mde,
    mcnemar_sample_size,
)
from evals.runner.results import RunError, check_run_id  # no settings until a run is read
from pipeline.cli.common import shown
from pipeline.errors import ConverseError

_EFFECT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%|pts?|points?)?\s*$")


def parse_effect(text: str) -> float:
    """'5%', '5pts' or '0.05' -> 0.05: a change in accuracy, as a share."""
    found = _EFFECT.match(text)
    value = float(found.group(1)) if found else -1.0
    if found and found.group(2):
        value /= 100
    if not 0 < value < 1:
        raise ConverseError(
            f"{text!r} is not a change in accuracy",
            "pass it in points or as a share: 5% (or 5pts) or 0.05",
        )
    return value


@dataclass(frozen=True)
class Discordance:
    """The share of cases whose verdict changes, and where that figure comes from."""

    share: float
    source: str


def measured_discordance(run_id: str, baseline: str | None) -> dict[str, Discordance]:
    """Per suite: the share of shared cases that changed verdict between a run and its
    baseline (pooled over providers and prompt variants)."""
    from evals.report.build import load_run, stored_baseline, stored_flaky
    from evals.report.compare import compare
    from evals.report.frame import frame
    from evals.report.reviews import load_reviews
    from evals.runner import RunDir

    run, _, df, _ = load_run(run_id)
    against = baseline or stored_baseline(run)
    if against is None:
        raise RunError(
            f"run {run_id} has no baseline to measure discordance against",
            f"pass --baseline RUN, or compare it first: converse report {run_id} --compare RUN",
        )
    base_run = RunDir.existing(against)
    base = frame(base_run.latest_rows(), load_reviews(base_run))
    comparison = compare(df, base, against, stored_flaky(run))
    pooled: dict[str, tuple[int, int]] = {}
    for record in comparison.records:
        shared, changed = pooled.get(str(record["suite"]), (0, 0))
        moved = int(record["regressions"]) + int(record["fixes"])  # type: ignore[call-overload]
        pooled[str(record["suite"])] = (shared + int(record["n"]), changed + moved)  # type: ignore[call-overload]
    return {
        suite: Discordance(
            changed / shared if changed else DEFAULT_DISCORDANCE,
            f"run {run_id} against {against}: {changed} of {shared} changed"
            if changed
            else f"run {run_id} against {against}: no case changed, so the default "
            f"{DEFAULT_DISCORDANCE:.0%}",
        )
        for suite, (shared, changed) in pooled.items()
    }


def _row(
    suite: str, cases: int, effect: float, found: Discordance, power: float, alpha: float
) -> dict[str, object]:
    # A change of `effect` moves at least that share of cases, whatever was measured before.
    share = max(found.share, effect)
    needed = mcnemar_sample_size(effect, share, alpha, power)
    mde = mcnemar_mde(cases, found.share, alpha, power)
    return {
        "suite": suite,
        "cases": cases,
        "effect": round(effect, 4),
        "discordance": round(share, 4),
        "discordance_source": found.source
        + ("" if share == found.share else f"; raised to the effect, {effect:.0%}"),
        "cases_needed": needed,
        "enough": cases >= needed,
        "mde": None if mde is None else round(mde, 4),
    }


@handles_errors
def power_command(
    effect: str = typer.Argument(
        ..., help="The change in accuracy to detect: 5% (or 5pts) or 0.05."
    ),
    suite: list[str] = typer.Option(
        [], "--suite", "-s", help="Suite name or path; repeat. Default: evals/suites."
    ),
    run: str | None = typer.Option(
        None,
        "--run",
        help="Measure the discordance from this run's comparison with its baseline.",
    ),
    baseline: str | None = typer.Option(
        None, "--baseline", help="The baseline for --run (default: the one it remembers)."
    ),
    discordance: float | None = typer.Option(
        None,
        "--discordance",
        min=0.0,
        max=1.0,
        help=f"The share of cases expected to change verdict (default {DEFAULT_DISCORDANCE}).",
    ),
    cases: int | None = typer.Option(
        None, "--cases", min=1, help="Judge this many cases instead of each suite's size."
    ),
    power: float = typer.Option(POWER, "--power", min=0.5, max=0.99, help="The power wanted."),
    alpha: float = typer.Option(ALPHA, "--alpha", min=0.001, max=0.2, help="Two-sided level."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON on stdout."),
) -> None:
    """How many cases each suite needs to detect a change in accuracy (McNemar, 80% power)."""
    share = parse_effect(effect)
    if baseline is not None and run is None:
        raise RunError("--baseline names the baseline of --run", "pass --run RUN with it")
    if run is not None and discordance is not None:
        raise RunError("--run measures the discordance that --discordance sets", "pass one")
    if discordance is not None and discordance <= 0:
        raise ConverseError("--discordance must be above 0", "pass a share such as 0.2")
    from evals.dataset import load_suites

    suites = load_suites(suite)
    measured: dict[str, Discordance] = {}
    if run is not None:
        measured = measured_discordance(
            check_run_id(run), None if baseline is None else check_run_id(baseline)
        )
    fallback = (
        Discordance(discordance, "--discordance")
        if discordance is not None
        else Discordance(
            DEFAULT_DISCORDANCE,
            f"the default {DEFAULT_DISCORDANCE:.0%} (no comparison measured it; --run RUN "
            "measures it)",
        )
    )
    rows = [
        _row(s.name, cases or len(s.cases), share, measured.get(s.name, fallback), power, alpha)
        for s in suites
    ]
    if as_json:
        payload = {"method": METHOD, "power": power, "alpha": alpha, "suites": rows}
        print(json.dumps(payload, ensure_ascii=False))
        return
    _print(rows, share, power, alpha)


def _print(rows: list[dict[str, object]], effect: float, power: float, alpha: float) -> None:
    out = stdout()
    out.print(
        f"cases needed to detect a change of {effect * 100:.1f} points in accuracy with "
        f"{power:.0%} power at α {alpha} ({METHOD})",
        highlight=False,
        soft_wrap=True,
    )
    table = Table(box=None, pad_edge=False, highlight=False)
    for name in ("suite", "cases", "discordance", "needed", "MDE at its size", "verdict"):
        table.add_column(name, justify="left" if name in ("suite", "verdict") else "right")
    for row in rows:
        mde = row["mde"]
        needed = int(row["cases_needed"])  # type: ignore[call-overload]
        cases = int(row["cases"])  # type: ignore[call-overload]
        verdict = "enough" if row["enough"] else f"too few: needs {needed} ({needed - cases} more)"
        table.add_row(
            shown(str(row["suite"])),
            str(cases),
            f"{float(row['discordance']):.0%}",  # type: ignore[arg-type]
            str(needed),
            "none detectable" if mde is None else f"±{float(mde) * 100:.1f} pts",  # type: ignore[arg-type]
            verdict,
        )
    out.print(table)
    sources = {str(r["discordance_source"]) for r in rows}
    for row in rows if len(sources) > 1 else rows[:1]:
        whose = f" of {row['suite']}" if len(sources) > 1 else ""
        source = str(row["discordance_source"])
        out.print(f"discordance{shown(whose)}: {shown(source)}", highlight=False, soft_wrap=True)
