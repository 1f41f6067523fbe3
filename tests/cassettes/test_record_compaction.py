"""A compaction suite is recorded like any model suite — the count, summary and judge calls —
and `converse eval --provider claude --replay` replays it with the rubric judged, no key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cassettes import synthetic_answers
from evals.cli import app
from tests.claude.test_compaction_synthetic import _case

runner = CliRunner()


def test_a_compaction_suite_records_and_replays_with_the_rubric(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    answers = synthetic_answers()
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(tmp_path / "fixtures"))
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    suite = tmp_path / "mini_compaction.yaml"
    data = {
        "name": "mini_compaction",
        "target": "compaction",
        "gate": {"accuracy": 1.0},
        "cases": [_case().model_dump(mode="json", exclude_defaults=True)],
    }
    suite.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    recorded = runner.invoke(app, ["record", "--suite", str(suite), "--synthetic", str(answers)])

    assert recorded.exit_code == 0, recorded.output
    assert recorded.output.splitlines()[0] == "  zofia-allotment: 1 compaction(s), judged"
    cassette = tmp_path / "fixtures" / "cassettes" / "synthetic" / "suites" / "mini_compaction.yaml"
    uris = [i["request"]["uri"] for i in yaml.safe_load(cassette.read_text())["interactions"]]
    assert [u.rsplit("/v1/", 1)[1] for u in uris] == [
        "messages/count_tokens",
        "messages",
        "messages",
    ]

    replay = runner.invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude", "--replay",
         "--suite", str(suite)],
    )  # fmt: skip
    assert replay.exit_code == 0, replay.output
    (entry,) = json.loads(replay.stdout)["results"]
    assert (entry["suite"], entry["n"], entry["passed"], entry["errors"]) == (
        "mini_compaction", 1, 1, 0,
    )  # fmt: skip
    assert entry["model"] == "claude synthetic-fixture"
    assert "replayed from synthetic cassettes" in entry["provider_label"]
