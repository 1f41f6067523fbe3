"""The benchmarks of live-run scale print their figures under the names docs/benchmarks.md uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
    assert figures["store_cpu_s"] > 0 and "runs_store_overhead_pct" in figures["verdicts"]
    assert figures["store_cpu_s"] == pytest.approx(
        figures["store_open_cpu_s"]
        + figures["store_on_row_and_finish_cpu_s"]
        + figures["store_writer_cpu_s"],
        abs=0.002,
    )


def test_bench_ratelimit_batch_submits_once_and_compares_rows() -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "ratelimit", "--batch", "--json", "--cases", "12", "--rpm", "600", "--itpm",
         "10000000", "--latency", "0.01", "--concurrency", "4", "--polls", "2",
         "--poll-seconds", "0"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert (figures["n"], figures["batch_submissions"], figures["batch_requests"]) == (12, 1, 12)
    assert figures["batch_polls"] == 3  # in progress twice, then ended
    assert figures["batch_direct_calls"] == 0 and figures["rows_equal"] is True
    assert figures["verdicts"] == {
        "batch_submissions": "pass",
        "batch_direct_calls": "pass",
        "batch_scored_wrong": "pass",
        "rows_differing": "pass",
    }


def test_bench_load_reports_peak_and_growth_per_size() -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "load", "--json", "--sizes", "20,40", "--concurrency", "8", "--latency", "0"],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    for n in (20, 40):
        assert figures[f"errors_{n}"] == 0 and figures[f"scored_wrong_{n}"] == 0
        assert figures[f"peak_mb_{n}"] >= figures[f"rss_mb_{n}_at_25pct"] > 0
    assert figures["n"] == 40 and figures["growth_mb"] == figures["growth_mb_40"]
    assert set(figures["verdicts"]) == {"growth_mb"}
    bad = CliRunner().invoke(app, ["bench", "load", "--sizes", "ten"])
    assert bad.exit_code == 2 and "give case counts such as 1000,10000" in bad.output
