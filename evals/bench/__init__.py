"""`converse bench NAME`: benchmarks that print medians and ratios measured in one run."""

from __future__ import annotations

import typer

from evals.bench import eval as eval_bench
from evals.bench import local as local_bench
from evals.bench import output, turn
from evals.bench import search as search_bench

bench_app = typer.Typer(
    help="Benchmarks (medians and ratios from one run, with verdicts).", no_args_is_help=True
)


@bench_app.command("turn")
def bench_turn(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    turns: int = typer.Option(1000, help="Measured turns."),
    assertions: int = typer.Option(10_000, help="Committed personal assertions of the person."),
) -> None:
    """Per-turn pipeline overhead (scripted provider, SQLite) and memory-load scaling."""
    output.report("turn", turn.run(turns=turns, assertions=assertions), as_json, turn.TARGETS)


@bench_app.command("eval")
def bench_eval(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    cases: int = typer.Option(1_000, help="Cases over scripted answers (throughput)."),
    latency_cases: int = typer.Option(160, help="Cases on the fixed-latency provider."),
    latency_ms: float = typer.Option(200.0, help="The fixed provider latency."),
    concurrency: int = typer.Option(16, help="Concurrency for the fixed-latency run."),
) -> None:
    """Eval runner overhead: scripted throughput, and concurrency against a fixed latency."""
    figures = eval_bench.run(
        cases=cases, latency_cases=latency_cases, latency_ms=latency_ms, concurrency=concurrency
    )
    output.report("eval", figures, as_json, eval_bench.TARGETS)


@bench_app.command("local")
def bench_local(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    n: int = typer.Option(300, help="Measured classifications (after warm-up)."),
) -> None:
    """Local classifier: median ms per message after warm-up; model load time on its own."""
    output.report("local", local_bench.run(n=n), as_json, local_bench.TARGETS)


@bench_app.command("search")
def bench_search(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    n: int | None = typer.Option(
        None, help="Stored embeddings searched by every query (default 100,000; 10,000 cold)."
    ),
    queries: int = typer.Option(200, help="Measured queries."),
    cold: bool = typer.Option(
        False, "--cold", help="First search over facts with no stored vectors (real model)."
    ),
) -> None:
    """Semantic memory search: p95 ms per query over n stored embeddings, and recall@5; with
    --cold, the time and peak memory of a first search that must embed every fact."""
    if cold:
        figures = search_bench.run_cold(n=n or 10_000, show_progress=not as_json)
        output.report("search", figures, as_json, search_bench.COLD_TARGETS)
        return
    figures = search_bench.run(n=n or 100_000, queries=queries)
    output.report("search", figures, as_json, search_bench.TARGETS)


__all__ = ["bench_app"]
