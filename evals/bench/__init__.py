"""`converse bench NAME`: benchmarks that print medians and ratios measured in one run.

Each prints every figure beside its target and verdict (evals/bench/targets.py); with
`--check` it exits 1 when a figure misses. A benchmark's module is imported only when it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pipeline.cli.exits import EXIT_CHECK

bench_app = typer.Typer(
    help="Benchmarks (medians and ratios from one run, with verdicts).", no_args_is_help=True
)

JsonOption = typer.Option(False, "--json", help="Print one JSON object.")
CheckOption = typer.Option(False, "--check", help="Exit 1 when a figure misses its target.")


def _report(
    name: str, figures: dict[str, Any], as_json: bool, check: bool, targets: str | None = None
) -> None:
    from evals.bench.output import report

    if not report(name, figures, as_json, targets) and check:
        raise typer.Exit(EXIT_CHECK)


@bench_app.command("turn")
def bench_turn(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    turns: int = typer.Option(1000, help="Measured turns."),
    assertions: int = typer.Option(10_000, help="Committed personal assertions of the person."),
) -> None:
    """Per-turn pipeline overhead (scripted provider, SQLite) and memory-load scaling."""
    from evals.bench import turn

    _report("turn", turn.run(turns=turns, assertions=assertions), as_json, check)


@bench_app.command("conversation")
def bench_conversation(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    turns: int = typer.Option(1000, min=200, help="Turns of the one conversation."),
) -> None:
    """A long conversation's per-turn cost stays flat: compaction bounds its history."""
    from evals.bench import conversation

    _report("conversation", conversation.run(turns=turns), as_json, check)


@bench_app.command("memory-retrieval")
def bench_memory_retrieval(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int = typer.Option(10_000, min=1, help="Confirmed conversation memories of the person."),
    queries: int = typer.Option(200, min=10, help="Measured messages (after the first)."),
) -> None:
    """What memory-aware classification adds to a turn at n conversation memories."""
    from evals.bench import memory_retrieval

    _report("memory-retrieval", memory_retrieval.run(n=n, queries=queries), as_json, check)


@bench_app.command("edges")
def bench_edges(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int = typer.Option(10_000, min=2, help="Committed personal facts of the person."),
    links: int = typer.Option(300, min=10, help="Facts linked, one write each (after the first)."),
) -> None:
    """Cost of relating a committed fact to its neighbours, per edge, at n facts."""
    from evals.bench import edges

    _report("edges", edges.run(n=n, links=links), as_json, check)


@bench_app.command("memory-query")
def bench_memory_query(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int = typer.Option(10_000, min=1, help="Committed personal facts of the person."),
    queries: int = typer.Option(200, min=10, help="Measured requests (after the first)."),
) -> None:
    """memory.query with a text query and filters (categories, importance, updated_after)."""
    from evals.bench import memory_query

    _report("memory-query", memory_query.run(n=n, queries=queries), as_json, check)


@bench_app.command("eval")
def bench_eval(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    cases: int = typer.Option(1_000, help="Cases over scripted answers (throughput)."),
    latency_cases: int = typer.Option(160, help="Cases on the fixed-latency provider."),
    latency_ms: float = typer.Option(200.0, help="The fixed provider latency."),
    concurrency: int = typer.Option(16, help="Concurrency for the fixed-latency run."),
    runs_url: str | None = typer.Option(
        None, "--runs-url", help="Also time a run with and without the run store at this URL."
    ),
    store_cases: int = typer.Option(10_000, help="Cases of the run-store comparison."),
    store_latency_ms: float = typer.Option(
        0.0,
        min=0.0,
        help="Each answer's latency in the run-store comparison (0: at once, the worst case).",
    ),
) -> None:
    """Eval runner overhead: scripted throughput, and concurrency against a fixed latency."""
    from evals.bench import eval as eval_bench

    figures = eval_bench.run(
        cases=cases,
        latency_cases=latency_cases,
        latency_ms=latency_ms,
        concurrency=concurrency,
        runs_url=runs_url,
        store_cases=store_cases,
        store_latency_ms=store_latency_ms,
    )
    _report("eval", figures, as_json, check)


@bench_app.command("ratelimit")
def bench_ratelimit(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    cases: int = typer.Option(2000, min=1, help="Classify cases run live against the loopback."),
    rpm: int = typer.Option(120, min=1, help="Requests a minute the loopback allows."),
    itpm: int = typer.Option(200_000, min=1, help="Input tokens a minute the loopback allows."),
    scale: float = typer.Option(
        1.0, min=0.01, help="Multiply both limits (a long run in proportionally less time)."
    ),
    latency: float = typer.Option(1.0, min=0.0, help="Seconds the loopback takes to answer."),
    concurrency: int = typer.Option(32, min=1, help="Cases in flight at most."),
    batch: bool = typer.Option(
        False, "--batch", help="Also run the cases through Message Batches and compare the rows."
    ),
    polls: int = typer.Option(
        5, min=0, help="With --batch: polls the loopback answers in_progress before ended."
    ),
    poll_seconds: float = typer.Option(2.0, min=0.0, help="With --batch: seconds between polls."),
) -> None:
    """A live classify run through a rate-limited loopback server: throughput against the
    limit, cases scored wrong, and calls refused after the first minute."""
    if batch:
        from evals.bench import batch as batched

        figures = batched.run(
            cases, rpm, itpm, scale, latency, concurrency, polls=polls, poll_seconds=poll_seconds
        )
        _report("ratelimit", figures, as_json, check, targets="ratelimit_batch")
        return
    from evals.bench import ratelimit

    figures = ratelimit.run(
        cases=cases, rpm=rpm, itpm=itpm, scale=scale, latency=latency, concurrency=concurrency
    )
    _report("ratelimit", figures, as_json, check)


@bench_app.command("load")
def bench_load(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    sizes: str = typer.Option("1000,10000", help="Comma-separated case counts, run in turn."),
    concurrency: int = typer.Option(64, min=1, help="Cases in flight at most."),
    latency: float = typer.Option(0.05, min=0.0, help="Seconds the loopback takes to answer."),
) -> None:
    """Memory of live runs with many cases in flight on the loopback path: peak MB per size,
    and the growth from a quarter of the rows to all of them."""
    from evals.bench import load

    try:
        counts = tuple(int(part) for part in sizes.split(",") if part.strip())
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1:
        raise typer.BadParameter("give case counts such as 1000,10000", param_hint="--sizes")
    _report("load", load.run(counts, concurrency, latency), as_json, check)


@bench_app.command("local")
def bench_local(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int = typer.Option(300, help="Measured classifications (after warm-up)."),
    provider: str = typer.Option(
        "local", help="local (the rule reader) or local-reader (the trained reader)."
    ),
) -> None:
    """Local classifier: median ms per message after warm-up; model load time on its own."""
    from evals.bench import local as local_bench

    if provider not in ("local", "local-reader"):
        raise typer.BadParameter("choose local or local-reader", param_hint="--provider")
    run = local_bench.run if provider == "local" else local_bench.run_reader
    _report("local", run(n=n), as_json, check)


@bench_app.command("llm")
def bench_llm(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int = typer.Option(
        10, min=0, help="Warm classifications (after the cold one); 0: no latency figures."
    ),
    replies: int = typer.Option(3, min=1, help="Replies timed for generation speed."),
    model: str | None = typer.Option(
        None, help="local-llm weights (default: CONVERSE_LLM_MODEL, else the best installed)."
    ),
    smoke: int = typer.Option(50, min=0, help="prompt_smoke cases timed (0: none)."),
    parallel: int = typer.Option(4, min=1, help="Requests decoded together for prompt_smoke."),
    baseline: bool = typer.Option(True, help="Also time prompt_smoke one request at a time."),
    classifier: str | None = typer.Option(
        None, help="Classifier prompt version for prompt_smoke (default: the active one)."
    ),
) -> None:
    """Embedded generative model (local-llm): load time, cold and warm classification (prefix
    cache), reply generation speed, prompt_smoke cases per minute."""
    from evals.bench import llm as llm_bench
    from pipeline.cli.common import handles_errors

    figures = handles_errors(llm_bench.run)(
        n=n,
        replies=replies,
        model=model,
        smoke=smoke,
        parallel=parallel,
        baseline=baseline,
        classifier=classifier,
    )
    _report("llm", figures, as_json, check)


@bench_app.command("search")
def bench_search(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    n: int | None = typer.Option(
        None, help="Vectors searched by every query (default 100,000; 10,000 cold)."
    ),
    queries: int = typer.Option(200, help="Measured queries."),
    real: int = typer.Option(
        5_000, "--real", help="Sentences embedded by the real model for a second sample (0: none)."
    ),
    store_n: int = typer.Option(
        10_000, "--store-n", help="Memories of the whole-search measurement (0: none)."
    ),
    cold: bool = typer.Option(
        False, "--cold", help="First search over facts with no stored vectors (real model)."
    ),
) -> None:
    """Semantic memory search: p95 ms per query through the nearest-neighbour index over n
    vectors, recall@5 against exact search, build time and peak memory (exact search only when
    the `ann` extra is not installed); with --cold, the time and peak memory of a first search
    that must embed every fact."""
    from evals.bench import search as search_bench
    from pipeline.cli.common import handles_errors
    from pipeline.store.ann import available

    if cold:
        figures = search_bench.run_cold(n=n or 10_000, show_progress=not as_json)
        _report("search", figures, as_json, check, targets="search_cold")
        return
    if not available():
        figures = search_bench.run(n=n or 100_000, queries=queries)
        _report("search", figures | {"index": "exact (usearch not installed)"}, as_json, check)
        return
    from evals.bench import search_scale

    figures = handles_errors(search_scale.run)(
        n=n or 100_000, queries=queries, real_n=real, store_n=store_n
    )
    _report("search", figures, as_json, check)


@bench_app.command("cli")
def bench_cli(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    runs: int = typer.Option(5, min=1, help="Fresh processes per command (the median is kept)."),
    baseline: Path | None = typer.Option(
        None,
        "--baseline",
        help="Another checkout (its root folder) whose help pages are timed in turn with these.",
    ),
) -> None:
    """Cold start: every help page, `memory list` and one `chat -m` turn, in fresh processes.

    Each is the median wall time of --runs processes, beside `python -c pass`; with --baseline,
    another checkout's help pages are timed too, the two taking turns."""
    from evals.bench import cli as cli_bench
    from pipeline.cli.common import handles_errors

    figures = handles_errors(cli_bench.run)(runs=runs, baseline=baseline)
    _report("cli", figures, as_json, check)


@bench_app.command("view")
def bench_view(
    as_json: bool = JsonOption,
    check: bool = CheckOption,
    rows: int = typer.Option(2_000, min=10, help="Rows of the synthetic run."),
    requests: int = typer.Option(50, min=5, help="Measured requests of the run page."),
) -> None:
    """`converse view`: spawn to first page, and server time of a run page of N rows."""
    from evals.bench import view as view_bench
    from pipeline.cli.common import handles_errors

    _report("view", handles_errors(view_bench.run)(rows=rows, requests=requests), as_json, check)


__all__ = ["bench_app"]
