"""`converse report` and `converse review`: reports from rows, and reviewers' verdicts."""

from __future__ import annotations

import re

import typer

from evals.commands.common import handles_errors, stdout
from evals.report import add_review, build_report, write_release
from evals.runner import RunDir
from evals.runner.results import RunError, check_run_id
from pipeline.cli.common import shown
from pipeline.text import check_text

# A release version names a file under reports/releases, so it may not hold a path.
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+-]{0,63}")


@handles_errors
def report_command(
    run_id: str = typer.Argument(..., help="The run to report on (reports/runs/RUN_ID)."),
    compare: str | None = typer.Option(None, "--compare", help="A baseline run to compare with."),
    release: str | None = typer.Option(
        None, "--release", help="Also write reports/releases/VERSION.md from this run."
    ),
) -> None:
    """Write report.md and report.html for a run (and a release report with --release)."""
    check_run_id(run_id)
    if compare is not None:
        check_run_id(compare)
    if release is not None and (not _VERSION.fullmatch(release) or ".." in release):
        raise RunError(f"{release!r} is not a release version", "use a version such as 0.2.0")
    built = build_report(run_id, compare=compare)
    stdout().print(f"report: {shown(built.markdown)}", highlight=False, soft_wrap=True)
    stdout().print(f"report: {shown(built.html)}", highlight=False, soft_wrap=True)
    if release:
        path = write_release(run_id, release)
        stdout().print(f"release report: {shown(path)}", highlight=False, soft_wrap=True)


@handles_errors
def review_command(
    run_id: str = typer.Argument(..., help="The run the case belongs to."),
    case_id: str = typer.Argument(..., help="The case id, or SUITE/CASE when ids repeat."),
    verdict: bool | None = typer.Option(None, "--pass/--fail", help="The reviewer's verdict."),
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
    check_run_id(run_id)
    # Checked here, not by Typer, so a missing option is one line and exit 2, like every error.
    if verdict is None:
        raise RunError("a review needs a verdict", "pass --pass or --fail")
    if note is None or not note.strip():
        raise RunError("a review needs a note saying why", 'pass --note "TEXT"')
    check_text(note, "the note")
    check_text(reviewer or "", "the reviewer")
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
        f"recorded: {shown(review.suite)}/{shown(review.case_id)} on {shown(review.provider)} "
        f"-> {review.verdict} by {shown(review.reviewer)} at {review.at}",
        highlight=False,
        soft_wrap=True,
    )
