"""`converse bench edges` links real facts and reports what it made (its speed is read from
the bench's own figures, never asserted here)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()


def test_bench_edges_reports_the_edges_it_made() -> None:
    result = runner.invoke(app, ["bench", "edges", "--n", "200", "--links", "20", "--json"])

    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["n"] == 200 and figures["links"] == 20 and figures["path"] == "exact"
    # clusters of about 20 facts whose members pass link_min: most links make 3 edges
    assert 20 <= figures["edges_made"] <= 60
    assert figures["edges_stored"] >= figures["edges_made"]
    assert figures["edge_ms"] > 0 and figures["edge_p95_ms"] >= figures["edge_ms"]
    assert set(figures["verdicts"]) == {"edge_ms"}
