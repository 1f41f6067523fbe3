"""`converse report` and `converse review`: reports from rows, and reviewers' verdicts."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from evals.commands.common import handles_errors, stderr, stdout
from evals.runner.results import RunDir, RunError, check_run_id
from pipeline.cli.common import shown
from pipeline.text import check_text

if TYPE_CHECKING:
    from evals.report.compare import Comparison

# The report's stack (pandas, the suite models, templates) is imported when a command runs.

# A release version names a file under reports/releases, so it may not hold a path.
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+-]{0,63}")


@handles_errors
def report_command(
    run_id: str = typer.Argument(..., help="The run to report on (reports/runs/RUN_ID)."),
    compare: str | None = typer.Option(
        None, "--compare", help="A baseline run to compare with (remembered for later builds)."
    ),
    no_compare: bool = typer.Option(
        False, "--no-compare", help="Forget the baseline an earlier --compare remembered."
    ),
    release: str | None = typer.Option(
        None, "--release", help="Also write reports/releases/VERSION.md from this run."
    ),
    override: str | None = typer.Option(
        None,
        "--override",
        help="With --release: write it although something blocks it (failures without a "
        "verdict, failed gates, a dirty tree, untracked prompts); the reason heads the report.",
        metavar="REASON",
    ),
    flaky: str | None = typer.Option(
        None,
        "--flaky",
        help="Cases whose epochs disagree: count them at their majority verdict (default) or "
        "exclude them from the comparison (remembered with the baseline).",
        metavar="count|exclude",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the comparison (power, verdicts, tags) as JSON on stdout."
    ),
    allow_change: list[str] = typer.Option(
        [],
        "--allow-change",
        help="Compare runs that differ in this on purpose (model, weights, settings, suite, "
        "sample, commit, provider): a finding names it instead of 'cannot attribute'.",
        metavar="DIMENSION",
    ),
    pair_provider: str | None = typer.Option(
        None,
        "--pair-provider",
        help="Compare this run's provider with another of the baseline's, case by case: "
        "THIS=BASELINE, e.g. local-reader=local (the readers differ in provider, model, "
        "weights and prompt: each is allowed).",
        metavar="THIS=BASELINE",
    ),
) -> None:
    """Write report.md and report.html for a run (and a release report with --release)."""
    from evals.report import build_report, write_release
    from evals.report.compare import FLAKY_MODES
    from evals.report.provenance import check_allowed
    from evals.report.release import check_override

    check_run_id(run_id)
    try:
        allow = check_allowed(allow_change)
    except ValueError as exc:
        raise RunError(str(exc), "e.g. --allow-change model") from None
    if compare is not None:
        check_run_id(compare)
    pair = _pair(pair_provider, compare)
    if pair is not None:
        allow = allow | {"provider", "model", "weights", "prompt"}  # the reader is all of them
    if release is not None and (not _VERSION.fullmatch(release) or ".." in release):
        raise RunError(f"{release!r} is not a release version", "use a version such as 0.2.0")
    if compare is not None and no_compare:
        raise RunError("--compare and --no-compare contradict each other", "pass one of them")
    if override is not None and release is None:
        raise RunError("--override applies to a release", 'pass --release VERSION --override "WHY"')
    override = check_override(override)
    from evals.runstore.local import ensure_local

    for wanted in (run_id, compare):  # a run recorded on another machine comes from the store
        if wanted is not None:
            ensure_local(wanted)
    if flaky is not None and flaky not in FLAKY_MODES:
        raise RunError(f"--flaky {flaky!r} is not a mode", "pass --flaky count or --flaky exclude")
    if flaky is not None and no_compare:
        raise RunError("--flaky applies to a comparison, and --no-compare drops it", "pass one")
    built = build_report(
        run_id, compare=compare, forget_compare=no_compare, flaky=flaky, allow=allow, pair=pair
    )
    if allow and built.comparison is None:
        raise RunError(
            f"--allow-change applies to a comparison, and run {run_id} has no baseline",
            "pass --compare BASELINE_RUN with it",
        )
    if flaky is not None and built.comparison is None:
        raise RunError(
            f"--flaky applies to a comparison, and run {run_id} has no baseline",
            f"pass --compare BASELINE_RUN with --flaky {flaky}",
        )
    out = stderr() if as_json else stdout()
    if built.comparison is not None:
        print_comparison(built.comparison, out)
    out.print(f"report: {shown(built.markdown)}", highlight=False, soft_wrap=True)
    out.print(f"report: {shown(built.html)}", highlight=False, soft_wrap=True)
    release_path = None
    if release:
        release_path = write_release(run_id, release, override=override)
        out.print(f"release report: {shown(release_path)}", highlight=False, soft_wrap=True)
    if as_json:
        payload = {
            "run_id": run_id,
            "report": str(built.html),
            "release": None if release_path is None else str(release_path),
            "comparison": None if built.comparison is None else built.comparison.as_json(),
        }
        print(json.dumps(payload, ensure_ascii=False))


def _pair(value: str | None, compare: str | None) -> tuple[str, str] | None:
    """`--pair-provider THIS=BASELINE` as (this, baseline), checked."""
    if value is None:
        return None
    this, sep, baseline = value.partition("=")
    if not sep or not this.strip() or not baseline.strip():
        raise RunError(f"--pair-provider {value!r} is not THIS=BASELINE", "e.g. local-reader=local")
    if compare is None:
        raise RunError("--pair-provider applies to a comparison", "pass --compare BASELINE_RUN")
    return this.strip(), baseline.strip()


_SUMMARY_COLUMNS = {
    "Suite": "suite",
    "Provider": "provider",
    "Model": "model",
    "Shared cases": "shared",
    "Baseline": "baseline",
    "This run": "this run",
    "Change": "change",
    "McNemar exact p": "McNemar p",
    "Regressions": "regressions",
    "Fixes": "fixes",
    "MDE (80% power)": "MDE",
    "Verdict": "verdict",
}


def print_comparison(comparison: Comparison, out: Console | None = None) -> None:
    """The comparison's summary: accuracy per suite in both runs, McNemar's p, the counts,
    what the comparison could detect and its verdict, then each verdict in words."""
    from evals.report.document import abbreviate

    out = out or stdout()
    out.print(f"compared with baseline run {shown(comparison.baseline_id)}", highlight=False)
    if comparison.changes.empty:
        out.print("no suite and provider in common with the baseline", highlight=False)
        return
    table = Table(box=None, pad_edge=False, highlight=False)
    for title in _SUMMARY_COLUMNS.values():
        table.add_column(title, justify="left" if title in ("suite", "provider") else "right")
    for row in comparison.changes.itertuples(index=False):
        values = dict(zip(comparison.changes.columns, row, strict=True))
        values["Provider"] = abbreviate(str(values["Provider"]))
        table.add_row(*(shown(str(values[name])) for name in _SUMMARY_COLUMNS))
    out.print(table)
    regressions, fixes = len(comparison.regressions), len(comparison.fixes)
    out.print(f"{regressions} regression(s), {fixes} fix(es) in all", highlight=False)
    flaky = comparison.flaky_cases
    how = "left out" if comparison.flaky == "exclude" else "counted at their majority verdict"
    out.print(f"flaky cases (--flaky {comparison.flaky}): {flaky} {how}", highlight=False)
    for record in comparison.records:
        out.print(
            f"{shown(str(record['suite']))} on {shown(abbreviate(str(record['provider_label'])))}: "
            f"{shown(str(record['sentence']))}",
            highlight=False,
            soft_wrap=True,
        )
        changed = record.get("provenance") or {}
        listed = "; ".join(
            f"{d['dimension']}: {d['before']} → {d['after']}"
            for d in changed.get("differences", [])  # type: ignore[attr-defined]
        )
        out.print(
            f"  changed besides the cases: {shown(listed) if listed else 'nothing recorded'}",
            highlight=False,
            soft_wrap=True,
        )


@handles_errors
def review_command(
    run_id: str = typer.Argument(..., help="The run the case belongs to."),
    case_id: str = typer.Argument(..., help="The case id, or SUITE/CASE when ids repeat."),
    # Two flags, not --pass/--fail: with one boolean option the last of both given wins silently.
    passed: bool = typer.Option(False, "--pass", help="The reviewer's verdict: the case passes."),
    failed: bool = typer.Option(False, "--fail", help="The reviewer's verdict: the case fails."),
    note: str | None = typer.Option(None, "--note", help="Why (shown in the report)."),
    reviewer: str | None = typer.Option(
        None, "--reviewer", help="Who reviews (default: $USER).", envvar="CONVERSE_REVIEWER"
    ),
    suite: str | None = typer.Option(None, "--suite", help="The suite, when case ids repeat."),
    provider: str | None = typer.Option(
        None, "--provider", help="The provider, when the run has several."
    ),
) -> None:
    """Record a reviewer's verdict on a case; reports show it, and every earlier one."""
    from evals.report import add_review

    check_run_id(run_id)
    # Checked here, not by Typer, so a missing option is one line and exit 2, like every error.
    if passed and failed:
        raise RunError("--pass and --fail were both given", "pass the one verdict you mean")
    if not passed and not failed:
        raise RunError("a review needs a verdict", "pass --pass or --fail")
    if note is None or not note.strip():
        raise RunError("a review needs a note saying why", 'pass --note "TEXT"')
    check_text(note, "the note")
    check_text(reviewer or "", "the reviewer")
    review = add_review(
        RunDir.existing(run_id),
        case_id,
        "pass" if passed else "fail",
        note,
        suite=suite,
        provider=provider,
        reviewer=reviewer,
    )
    stdout().print(
        f"recorded: {shown(review.suite)}/{shown(review.case_id)} on {shown(review.provider)} "
        f"-> {review.verdict} by {shown(review.reviewer)} at {review.at}",
        highlight=False,
        soft_wrap=True,
    )
