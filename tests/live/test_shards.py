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


def _two_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> list[Path]:
    for k in (1, 2):
        _eval(monkeypatch, tmp_path / f"s{k}", files, "--run-id", RUN_ID, "--shard", f"{k}/2")
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "merged"))
    return [tmp_path / f"s{k}" / "runs" / RUN_ID for k in (1, 2)]


def _merge(shards: list[Path], *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["runs", "merge", RUN_ID, *map(str, shards), *extra])
    return result.exit_code, result.output


def _edit_meta(folder: Path, **changes: object) -> None:
    meta = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps(meta | changes))


def test_a_merged_run_is_in_the_run_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> None:
    code, output = _merge(_two_shards(tmp_path, monkeypatch, files))
    assert code == 0, output
    assert f"run {RUN_ID}: in the run store (60 rows added)" in output
    shown = CliRunner().invoke(app, ["runs", "show", RUN_ID])
    assert shown.exit_code == 0, shown.output
    assert "rows: 60" in shown.output


def test_a_shard_without_rows_or_with_fewer_than_planned_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path]
) -> None:
    shards = _two_shards(tmp_path, monkeypatch, files)
    results = shards[1] / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-3]))  # three cases never finished
    code, output = _merge(shards)
    assert code == 2
    assert output.strip() == (
        f"error: shard 2/2 in {shards[1]} holds {len(lines) - 3} of its {len(lines)} rows "
        f"(unfinished, or its results.jsonl is missing) — finish it with converse eval "
        f"--resume {RUN_ID} on its machine, then merge"
    )
    results.unlink()
    _edit_meta(shards[1], planned=None)  # a run.json from before shards counted their plan
    code, output = _merge(shards)
    assert code == 2 and f"shard 2/2 in {shards[1]} holds no rows" in output
    assert not (tmp_path / "merged" / "runs" / RUN_ID).exists()


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("{not json", "run.json cannot be read (JSONDecodeError) — restore it from a backup"),
        ("[1, 2]", "run.json is not a run description (a JSON object)"),
        ("shard-k", "run.json: field shard.k: input should be a valid integer"),
        ("shard-order", "run.json: field shard is not {k, n} with whole numbers 1 ≤ k ≤ n"),
    ],
)
def test_a_shard_whose_run_json_is_damaged_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: tuple[Path, Path],
    damage: str,
    said: str,
) -> None:
    shards = _two_shards(tmp_path, monkeypatch, files)
    if damage == "shard-k":
        _edit_meta(shards[0], shard={"k": "one", "n": 2})
    elif damage == "shard-order":
        _edit_meta(shards[0], shard={"k": 3, "n": 2})
    else:
        (shards[0] / "run.json").write_text(damage)
    code, output = _merge(shards)
    assert code == 2 and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1 and said in output, output
    assert not (tmp_path / "merged" / "runs" / RUN_ID).exists()


@pytest.mark.parametrize("difference", ["commit", "suite", "provider"])
def test_shards_that_differ_are_refused_unless_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path], difference: str
) -> None:
    shards = _two_shards(tmp_path, monkeypatch, files)
    meta = json.loads((shards[1] / "run.json").read_text())
    if difference == "commit":
        _edit_meta(shards[1], git={"commit": "0" * 40, "dirty": False})
        named = "commits "
    elif difference == "suite":
        _edit_meta(shards[1], suite_info=[dict(meta["suite_info"][0], sha256="f" * 64)])
        named = "suite sharded with different contents (sha256 differs)"
    else:
        results = shards[1] / "results.jsonl"
        rows = [json.loads(line) for line in results.read_text().splitlines()]
        results.write_text("".join(
            json.dumps(dict(r, provider_label="scripted (another fixture)")) + "\n" for r in rows
        ))  # fmt: skip
        named = "provider scripted as scripted (another fixture) and "
    code, output = _merge(shards)
    assert code == 2 and f"error: the shards of run {RUN_ID} differ: " in output
    assert named in output and "pass --allow-mismatch" in output
    assert not (tmp_path / "merged" / "runs" / RUN_ID).exists()
    code, output = _merge(shards, "--allow-mismatch")
    assert code == 0, output
    assert "warning: merged despite " in output
    merged = json.loads((tmp_path / "merged" / "runs" / RUN_ID / "run.json").read_text())
    assert len(merged["mismatches"]) == 1 and named in merged["mismatches"][0]
