"""Benchmarks print each figure beside its target and verdict; --check exits 1 on a miss."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.bench.targets import TARGETS, Target, verdicts
from evals.cli import app

runner = CliRunner()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"


def _turn_figures(median_ms: float) -> dict[str, object]:
    return {"median_ms": median_ms, "p99_ms": 3.0, "memory_load_ratio": 1.0, "n": 10}


@pytest.fixture
def fake_turn(monkeypatch):
    def use(median_ms: float) -> None:
        monkeypatch.setattr("evals.bench.turn.run", lambda **_: _turn_figures(median_ms))

    return use


def test_targets_compare_in_their_direction() -> None:
    assert Target("<=", 2).met(2) and not Target("<=", 2).met(2.01)
    assert Target(">=", 200).met(200) and not Target(">=", 200).met(199.9)
    assert str(Target("<=", 2_500, "ms")) == "≤ 2,500 ms"
    assert verdicts("turn", _turn_figures(2.5)) == {
        "median_ms": "miss",
        "p99_ms": "pass",
        "memory_load_ratio": "pass",
    }


def test_json_gains_verdicts_and_keeps_its_keys(fake_turn) -> None:
    fake_turn(1.5)
    result = runner.invoke(app, ["bench", "turn", "--json", "--check"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {"bench", "median_ms", "p99_ms", "n", "machine"} <= set(figures)
    assert figures["verdicts"] == {
        "median_ms": "pass",
        "p99_ms": "pass",
        "memory_load_ratio": "pass",
    }


def test_check_exits_1_when_a_figure_misses(fake_turn) -> None:
    fake_turn(2.5)
    assert runner.invoke(app, ["bench", "turn", "--json"]).exit_code == 0
    checked = runner.invoke(app, ["bench", "turn", "--check"])
    assert checked.exit_code == 1
    row = next(line for line in checked.output.splitlines() if "median_ms" in line)
    assert [cell.strip() for cell in row.split("│")[1:5]] == [
        "median_ms",
        "2.500",
        "≤ 2 ms",
        "miss",
    ]


def test_every_target_is_in_docs_benchmarks() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for bench, targets in TARGETS.items():
        for figure, target in targets.items():
            assert f"| `{bench}` | `{figure}` | {target} |" in docs, (bench, figure)


def test_bench_cli_times_fresh_processes() -> None:
    result = runner.invoke(app, ["bench", "cli", "--json", "--runs", "1"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["bench"] == "cli" and figures["n"] == 1
    for key in ("help_ms", "subcommand_help_ms", "list_ms", "chat_turn_ms", "python_ms"):
        assert figures[key] > 0, key
    assert figures["python_ms"] < figures["help_ms"] < figures["chat_turn_ms"]
    assert set(figures["verdicts"]) == {"help_ms", "subcommand_help_ms", "list_ms", "chat_turn_ms"}
    # every group's and command's own --help, the slowest of them named
    helps = figures["subcommand_helps_ms"]
    assert {"chat", "memory", "memory list", "eval", "bench", "bench cli"} <= set(helps)
    assert all(v > 0 for v in helps.values()) and figures["help_pages"] == len(helps) + 1
    assert figures["subcommand_help_ms"] == helps[figures["slowest_subcommand"]]


def test_bench_cli_reports_a_baseline_beside_each_page() -> None:
    from evals.bench.cli import _figures

    figures = {
        "help_ms": [90.0, 300.0],
        "list_ms": [1.0],
        "chat_turn_ms": [2.0],
        "python_ms": [3.0],
    }
    helps = {"eval": [120.0, 2000.0], "memory list": [130.0, 280.0]}
    found = _figures(figures, helps, 5, Path("/main"))
    assert (found["help_ms"], found["baseline_help_ms"]) == (90.0, 300.0)
    assert (found["slowest_subcommand"], found["subcommand_help_ms"]) == ("memory list", 130.0)
    assert found["baseline_slowest_subcommand"] == "eval"
    assert found["baseline_subcommand_helps_ms"] == {"eval": 2000.0, "memory list": 280.0}
