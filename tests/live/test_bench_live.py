"""The benchmarks of live-run scale print their figures under the names docs/benchmarks.md uses."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from evals.cli import app


def test_bench_ratelimit_reports_throughput_wrong_answers_and_refusals() -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "ratelimit", "--json", "--cases", "30", "--rpm", "600", "--itpm", "10000000",
         "--latency", "0.01", "--concurrency", "8"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["n"] == 30 and figures["scored_wrong"] == 0 and figures["errors"] == 0
    assert figures["limit_rpm"] == 600 and figures["binding_limit_per_min"] == 600
    assert set(figures["verdicts"]) == {
        "throughput_pct",
        "scored_wrong",
        "refused_after_first_minute",
    }


def test_bench_eval_times_the_run_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    result = CliRunner().invoke(
        app,
        ["bench", "eval", "--json", "--cases", "20", "--latency-cases", "4", "--latency-ms", "10",
         "--concurrency", "2", "--store-cases", "50", "--runs-url", url],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["store_rows"] == 50 and figures["store_backend"] == "sqlite"
    assert figures["store_seconds"] > 0 and "runs_store_overhead_pct" in figures["verdicts"]
