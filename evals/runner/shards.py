"""Shards: one run's plan split across machines, and the shards merged back into one run.

`--shard K/N` keeps the work items whose key hashes to K-1 modulo N (sha256 of suite, case,
provider, prompt variant and epoch), so every machine picks the same slice of the same plan
without talking to the others, and the N slices cover the plan exactly once. Shards given one
`--run-id` write run folders of that id (one per machine); `merge_shards` checks that the
folders are the N shards of one plan and writes them as one run, whose rows are the rows an
unsharded run would have written (their timing aside).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.runner.results import RESULTS, RUN_META, RunDir, RunError, latest, read_rows

SHARD = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Shard:
    """Slice `k` (1-based) of `n`."""

    k: int
    n: int

    def holds(self, key: tuple[Any, ...]) -> bool:
        """Whether the work item with this key is in this shard."""
        text = "\x1f".join(str(part) for part in key)
        digest = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        return digest % self.n == self.k - 1

    def as_meta(self) -> dict[str, int]:
        """As run.json keeps it."""
        return {"k": self.k, "n": self.n}


def parse_shard(text: str) -> Shard:
    """ "2/4" -> Shard(2, 4); anything else is a one-line error."""
    found = SHARD.fullmatch(text.strip())
    if found is None or not 1 <= int(found[1]) <= int(found[2]):
        raise RunError(f"--shard {text!r} is not K/N with 1 ≤ K ≤ N", "e.g. --shard 2/4")
    return Shard(int(found[1]), int(found[2]))


def shard_of(meta: dict[str, Any]) -> Shard | None:
    """The shard a run.json describes, if any."""
    data = meta.get("shard")
    return Shard(int(data["k"]), int(data["n"])) if isinstance(data, dict) else None


def _source(path: Path, run_id: str) -> Path:
    """A run folder given as itself, or as a reports folder holding runs/RUN_ID."""
    for candidate in (path, path / "runs" / run_id):
        if (candidate / RUN_META).is_file():
            return candidate
    raise RunError(
        f"{path} holds no run {run_id} (no {RUN_META} there or under runs/{run_id})",
        "give each shard's run folder, or the reports folder it was written to",
    )


def merge_shards(run_id: str, sources: list[Path], root: Path | None = None) -> RunDir:
    """Write the shards of `run_id` found in `sources` as one run under `root`."""
    found: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    sizes: set[int] = set()
    for path in sources:
        folder = _source(path, run_id)
        meta = json.loads((folder / RUN_META).read_text(encoding="utf-8"))
        shard = shard_of(meta)
        if meta.get("run_id") != run_id or shard is None:
            raise RunError(
                f"{folder} is not a shard of run {run_id}",
                f"run each shard with --run-id {run_id} --shard K/N",
            )
        if shard.k in found:
            raise RunError(f"shard {shard.k}/{shard.n} is given twice", "give each shard once")
        sizes.add(shard.n)
        found[shard.k] = (meta, read_rows(folder / RESULTS))
    if len(sizes) != 1:
        raise RunError("the folders are shards of different splits", "merge one split: K/N alike")
    n = sizes.pop()
    missing = [str(k) for k in range(1, n + 1) if k not in found]
    if missing:
        raise RunError(
            f"shard(s) {', '.join(missing)} of {n} are missing", "merge every shard's run folder"
        )
    metas = [found[k][0] for k in range(1, n + 1)]
    plans = {json.dumps(m.get("config"), sort_keys=True) for m in metas}
    if len(plans) != 1:
        raise RunError(
            f"the shards of run {run_id} were started with different suites, providers or prompts",
            "run every shard with the same converse eval options",
        )
    merged = dict(metas[0])
    merged.pop("shard", None)
    merged["merged_from"] = [m["shard"] for m in metas]
    merged["created_at"] = min(str(m.get("created_at", "")) for m in metas)
    finished = [str(m["finished_at"]) for m in metas if m.get("finished_at")]
    if len(finished) == n:
        merged["finished_at"] = max(finished)
    merged.pop("gates_passed", None)  # the merged rows decide; see evals/commands/runs.py
    rows = latest(row for k in range(1, n + 1) for row in found[k][1])
    run = RunDir(run_id, root)
    run.path.mkdir(parents=True, exist_ok=True)
    tmp = run.path / f".{RESULTS}.tmp"
    with tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    tmp.replace(run.results_path)
    run.write_meta(merged)
    return run
