"""The console script `converse`: the pipeline's commands plus the harness's own.

Each command is imported when it runs (pipeline/cli/lazy.py): pandas, the cassette machinery
and the benchmarks load only for the commands that use them.
"""

from __future__ import annotations

from pipeline.cli import LazyCommand, build_app

HARNESS_COMMANDS: dict[str, LazyCommand] = {
    "bench": LazyCommand(
        "evals.bench:bench_app", "Benchmarks (medians and ratios from one run, with verdicts)."
    ),
    "eval": LazyCommand(
        "evals.commands.eval:eval_command",
        "Run eval suites on providers and prompt versions; exit 1 when a gate fails.",
    ),
    "report": LazyCommand(
        "evals.commands.report:report_command",
        "Write report.md and report.html for a run (and a release report with --release).",
    ),
    "review": LazyCommand(
        "evals.commands.report:review_command",
        "Record a reviewer's verdict on a case; reports show it, and every earlier one.",
    ),
    "runs": LazyCommand(
        "evals.commands.runs:runs_app",
        "Stored runs: list, show, trend and push (CONVERSE_RUNS_URL); merge shards.",
    ),
    "view": LazyCommand(
        "evals.view.command:view_command",
        "Review eval runs in the browser: failures, verdicts, comparisons, releases.",
    ),
    "power": LazyCommand(
        "evals.commands.power:power_command",
        "How many cases each suite needs to detect a change in accuracy (McNemar, 80% power).",
    ),
    "suites": LazyCommand(
        "evals.commands.suites:suites_app", "The suite file format: its JSON Schema."
    ),
    "export": LazyCommand("evals.commands.export:export_app", "Export suites to other eval tools."),
    "record": LazyCommand(
        "evals.commands.record:record_command",
        "Record a suite's Claude calls to a cassette (real API, or --synthetic).",
    ),
    "cassettes": LazyCommand(
        "evals.cassettes.cli:cassettes_app", "Check the recorded model calls."
    ),
}

app = build_app(HARNESS_COMMANDS)


def main() -> None:
    """Entry point of the `converse` console script."""
    app()


if __name__ == "__main__":
    main()
