"""The console script `converse`: the pipeline's commands plus the harness's own."""

from __future__ import annotations

from evals.bench import bench_app
from evals.cassettes.cli import cassettes_app
from evals.commands import eval_command, export_app, report_command, review_command
from evals.record import record
from pipeline.cli import build_app

app = build_app()
app.add_typer(bench_app, name="bench")
app.command("eval")(eval_command)
app.command("report")(report_command)
app.command("review")(review_command)
app.add_typer(export_app, name="export")
app.command("record")(record)
app.add_typer(cassettes_app, name="cassettes")


def main() -> None:
    """Entry point of the `converse` console script."""
    app()
