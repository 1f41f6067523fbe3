"""The console script `converse`: the pipeline's commands plus the harness's own."""

from __future__ import annotations

from evals.bench import bench_app
from pipeline.cli import build_app

app = build_app()
app.add_typer(bench_app, name="bench")


def main() -> None:
    """Entry point of the `converse` console script."""
    app()
