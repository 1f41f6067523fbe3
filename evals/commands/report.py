"""`converse report` and `converse review`: reports from rows, and reviewers' verdicts."""

from __future__ import annotations

import typer

from evals.commands.common import handles_errors, stdout
from evals.report import add_review, build_report, write_release
from evals.runner import RunDir


@handles_errors
def report_command(
    run_id: str = typer.Argument(..., help="The run to report on (reports/runs/RUN_ID)."),
    compare: str | None = typer.Option(None, "--compare", help="A baseline run to compare with."),
    release: str | None = typer.Option(
        None, "--release", help="Also write reports/releases/VERSION.md from this run."
    ),
) -> None:
    """Write report.md and report.html for a run (and a release report with --release)."""
    built = build_report(run_id, compare=compare)
    stdout().print(f"report: {built.markdown}", highlight=False, soft_wrap=True)
    stdout().print(f"report: {built.html}", highlight=False, soft_wrap=True)
    if release:
        path = write_release(run_id, release)
        stdout().print(f"release report: {path}", highlight=False, soft_wrap=True)


@handles_errors
def review_command(
    run_id: str = typer.Argument(..., help="The run the case belongs to."),
    case_id: str = typer.Argument(..., help="The case id, or SUITE/CASE when ids repeat."),
    verdict: bool = typer.Option(..., "--pass/--fail", help="The reviewer's verdict."),
    note: str = typer.Option(..., "--note", help="Why (shown in the report)."),
    reviewer: str | None = typer.Option(
        None, "--reviewer", help="Who reviews (default: $USER).", envvar="CONVERSE_REVIEWER"
    ),
    suite: str | None = typer.Option(None, "--suite", help="The suite, when case ids repeat."),
    provider: str | None = typer.Option(
        None, "--provider", help="The provider, when the run has several."
    ),
) -> None:
    """Record a reviewer's verdict on a case; reports show it beside the automatic one."""
    review = add_review(
        RunDir.existing(run_id),
        case_id,
        "pass" if verdict else "fail",
        note,
        suite=suite,
        provider=provider,
        reviewer=reviewer,
    )
    stdout().print(
        f"recorded: {review.suite}/{review.case_id} on {review.provider} -> {review.verdict} "
        f"by {review.reviewer} at {review.at}",
        highlight=False,
        soft_wrap=True,
    )
