"""`converse bench NAME`: benchmarks that print medians and ratios measured in one run."""

from __future__ import annotations

import typer

from evals.bench import output, turn

bench_app = typer.Typer(help="Benchmarks (medians and ratios from one run).", no_args_is_help=True)


@bench_app.command("turn")
def bench_turn(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    turns: int = typer.Option(300, help="Measured turns."),
    assertions: int = typer.Option(10_000, help="Committed personal assertions of the person."),
) -> None:
    """Per-turn pipeline overhead (scripted provider, SQLite) and memory-load scaling."""
    output.report("turn", turn.run(turns=turns, assertions=assertions), as_json, turn.TARGETS)


__all__ = ["bench_app"]
