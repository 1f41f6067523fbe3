"""The shards of one run merged into one run, refusing anything that would lose or mix rows.

Each folder must be a shard of the run (a readable run.json object whose `shard` is {k, n} in
whole numbers), hold the rows it planned (a shard with fewer is unfinished: its missing cases
would vanish from the merged run, which would still pass its gates), and have been made at the
same commit, from the same suite contents, by the same providers as the others. A difference
of commit, suite hash or provider label is refused unless `allow_mismatch` is given, and then
named in the merged run.json under `mismatches`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.runner.results import (
    RESULTS,
    RUN_META,
    RunDir,
    RunError,
    latest,
    read_meta_file,
    read_rows,
)
from evals.runner.shards import Shard


@dataclass(frozen=True)
class Part:
    """One shard's folder, run.json and rows."""

    folder: Path
    meta: dict[str, Any]
    shard: Shard
    rows: list[dict[str, Any]]


def _source(path: Path, run_id: str) -> Path:
    """A run folder given as itself, or as a reports folder holding runs/RUN_ID."""
    for candidate in (path, path / "runs" / run_id):
        if (candidate / RUN_META).is_file():
            return candidate
    raise RunError(
        f"{path} holds no run {run_id} (no {RUN_META} there or under runs/{run_id})",
        "give each shard's run folder, or the reports folder it was written to",
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shard(folder: Path, meta: dict[str, Any], run_id: str) -> Shard:
    data = meta.get("shard")
    if meta.get("run_id") != run_id or data is None:
        raise RunError(
            f"{folder} is not a shard of run {run_id}",
            f"run each shard with --run-id {run_id} --shard K/N",
        )
    if not (
        isinstance(data, dict)
        and _whole(data.get("k"))
        and _whole(data.get("n"))
        and 1 <= data["k"] <= data["n"]
    ):
        raise RunError(
            f"{folder / RUN_META}: field shard is not {{k, n}} with whole numbers 1 ≤ k ≤ n",
            "restore run.json from the shard's machine, or run that shard again",
        )
    return Shard(data["k"], data["n"])


def read_part(path: Path, run_id: str) -> Part:
    """One shard's folder, checked: its run.json, its shard, and every row it planned."""
    folder = _source(path, run_id)
    meta = read_meta_file(folder / RUN_META)
    shard = _shard(folder, meta, run_id)
    rows = latest(read_rows(folder / RESULTS))
    planned = meta.get("planned")
    expected = planned if _whole(planned) else None
    if (expected is None and not rows) or (expected is not None and len(rows) < expected):
        held = f"{len(rows)} of its {expected} rows" if expected is not None else "no rows"
        raise RunError(
            f"shard {shard.k}/{shard.n} in {folder} holds {held} (unfinished, or its "
            f"{RESULTS} is missing)",
            f"finish it with converse eval --resume {run_id} on its machine, then merge",
        )
    return Part(folder, meta, shard, rows)


def _differences(parts: list[Part]) -> list[str]:
    """What differs between the shards beyond their slice: commit, suite hashes, providers."""
    found: list[str] = []
    commits = {str((p.meta.get("git") or {}).get("commit")) for p in parts}
    if len(commits) > 1:
        found.append(f"commits {', '.join(sorted(c[:12] for c in commits))}")
    hashes = [
        {str(s.get("name")): s.get("sha256") for s in p.meta.get("suite_info", [])} for p in parts
    ]
    for name in sorted(set().union(*hashes)):
        seen = {h.get(name) for h in hashes if h.get(name) is not None}
        if len(seen) > 1:
            found.append(f"suite {name} with different contents (sha256 differs)")
    labels: dict[str, set[str]] = {}
    for part in parts:
        for row in part.rows:
            labels.setdefault(str(row["provider"]), set()).add(str(row.get("provider_label")))
    for provider, seen_labels in sorted(labels.items()):
        if len(seen_labels) > 1:
            found.append(f"provider {provider} as {' and '.join(sorted(seen_labels))}")
    return found


def merge_shards(
    run_id: str, sources: list[Path], root: Path | None = None, allow_mismatch: bool = False
) -> RunDir:
    """Write the shards of `run_id` found in `sources` as one run under `root`."""
    found: dict[int, Part] = {}
    sizes: set[int] = set()
    for path in sources:
        part = read_part(path, run_id)
        if part.shard.k in found:
            raise RunError(
                f"shard {part.shard.k}/{part.shard.n} is given twice", "give each shard once"
            )
        sizes.add(part.shard.n)
        found[part.shard.k] = part
    if len(sizes) != 1:
        raise RunError("the folders are shards of different splits", "merge one split: K/N alike")
    n = sizes.pop()
    missing = [str(k) for k in range(1, n + 1) if k not in found]
    if missing:
        raise RunError(
            f"shard(s) {', '.join(missing)} of {n} are missing", "merge every shard's run folder"
        )
    parts = [found[k] for k in range(1, n + 1)]
    plans = {json.dumps(p.meta.get("config"), sort_keys=True) for p in parts}
    if len(plans) != 1:
        raise RunError(
            f"the shards of run {run_id} were started with different suites, providers or prompts",
            "run every shard with the same converse eval options",
        )
    differences = _differences(parts)
    if differences and not allow_mismatch:
        raise RunError(
            f"the shards of run {run_id} differ: {'; '.join(differences)}",
            "run every shard from one commit and one environment, or pass --allow-mismatch "
            "to merge them anyway (run.json then names the differences)",
        )
    return _write(run_id, parts, root, differences)


def _write(run_id: str, parts: list[Part], root: Path | None, differences: list[str]) -> RunDir:
    metas = [p.meta for p in parts]
    merged = dict(metas[0])
    merged.pop("shard", None)
    merged.pop("planned", None)
    merged["merged_from"] = [m["shard"] for m in metas]
    if differences:
        merged["mismatches"] = differences
    merged["created_at"] = min(str(m.get("created_at", "")) for m in metas)
    finished = [str(m["finished_at"]) for m in metas if m.get("finished_at")]
    if len(finished) == len(metas):
        merged["finished_at"] = max(finished)
    merged.pop("gates_passed", None)  # the merged rows decide; see evals/commands/runs.py
    rows = latest(row for p in parts for row in p.rows)
    run = RunDir(run_id, root)
    run.path.mkdir(parents=True, exist_ok=True)
    tmp = run.path / f".{RESULTS}.tmp"
    with tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    tmp.replace(run.results_path)
    run.write_meta(merged)
    return run
