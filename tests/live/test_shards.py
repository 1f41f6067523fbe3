"""Shards: four slices of one plan, merged, equal the unsharded run row for row (timing aside)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app
from evals.runner.shards import Shard, parse_shard
from pipeline.errors import ConverseError

RUN_ID = "20261126-120000-abcd"
# Differ between runs of the same plan: when and by which process a row was written.
TIMING = ("latency_ms", "finished_at", "run_id")


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    script = {
        "turns": [
            {
                "message": f"message {i}",
                "intent": "general_conversation" if i % 3 else "add_knowledge",
            }
            for i in range(0, 30, 2)
        ]
    }
    cases = [
        {"id": f"c{i}", "message": f"message {i}", "expect": {"intent": "general_conversation"}}
        for i in range(30)
    ]
    suite = {"name": "sharded", "target": "classify", "description": "x", "cases": cases}
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(script), "utf-8")
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite), "utf-8")
    return tmp_path / "suite.yaml", tmp_path / "script.yaml"


def _eval(
    monkeypatch: pytest.MonkeyPatch, reports: Path, files: tuple[Path, Path], *extra: str
) -> str:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(reports))
    suite, script = files
    result = CliRunner().invoke(
        app,
        ["eval", "--provider", "scripted", "--script", str(script), "--suite", str(suite),
         "--epochs", "2", "--no-cache", "--no-report", "--no-progress", "--json", *extra],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    return str(json.loads(result.stdout)["run_id"])


def _rows(folder: Path) -> dict[tuple[str, str, int], dict[str, object]]:
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return {
        (r["suite"], r["case_id"], r["epoch"]): {k: v for k, v in r.items() if k not in TIMING}
        for r in rows
    }


def test_four_shards_merged_equal_one_unsharded_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> None:
    whole_id = _eval(monkeypatch, tmp_path / "whole", files)
    whole = _rows(tmp_path / "whole" / "runs" / whole_id)
    sizes = []
    for k in range(1, 5):
        assert (
            _eval(monkeypatch, tmp_path / f"s{k}", files, "--run-id", RUN_ID, "--shard", f"{k}/4")
            == RUN_ID
        )
        sizes.append(len(_rows(tmp_path / f"s{k}" / "runs" / RUN_ID)))
    assert sum(sizes) == len(whole) == 60 and all(sizes)
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "merged"))
    shards = [str(tmp_path / f"s{k}") for k in (3, 1, 4, 2)]  # any order
    merged = CliRunner().invoke(app, ["runs", "merge", RUN_ID, *shards])
    assert merged.exit_code == 0, merged.output
    assert "merged 4 shards, 60 rows" in merged.output
    folder = tmp_path / "merged" / "runs" / RUN_ID
    assert _rows(folder) == whole
    meta = json.loads((folder / "run.json").read_text())
    assert "shard" not in meta and len(meta["merged_from"]) == 4
    report = CliRunner().invoke(app, ["report", RUN_ID])
    assert report.exit_code == 0, report.output


def test_a_missing_shard_is_named_and_nothing_is_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> None:
    for k in (1, 2):
        _eval(monkeypatch, tmp_path / f"s{k}", files, "--run-id", RUN_ID, "--shard", f"{k}/3")
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "merged"))
    result = CliRunner().invoke(
        app, ["runs", "merge", RUN_ID, str(tmp_path / "s1"), str(tmp_path / "s2")]
    )
    assert result.exit_code != 0
    assert "shard(s) 3 of 3 are missing" in result.output
    assert not (tmp_path / "merged" / "runs" / RUN_ID).exists()


def test_shards_cover_every_key_once_and_bad_specs_are_refused() -> None:
    keys = [("s", f"c{i}", "p", "active", e) for i in range(200) for e in range(2)]
    owners = [[k for k in range(1, 6) if Shard(k, 5).holds(key)] for key in keys]
    assert all(len(o) == 1 for o in owners)
    assert parse_shard("2/4") == Shard(2, 4)
    for bad in ("0/4", "5/4", "2", "a/b"):
        with pytest.raises(ConverseError, match="is not K/N"):
            parse_shard(bad)


def test_a_second_shard_into_the_same_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> None:
    _eval(monkeypatch, tmp_path / "r", files, "--run-id", RUN_ID, "--shard", "1/2")
    suite, script = files
    result = CliRunner().invoke(
        app,
        ["eval", "--provider", "scripted", "--script", str(script), "--suite", str(suite),
         "--no-report", "--no-progress", "--run-id", RUN_ID, "--shard", "2/2"],
    )  # fmt: skip
    assert result.exit_code != 0 and f"run {RUN_ID} already exists" in result.output
