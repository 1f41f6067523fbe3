"""The run folders under reports/runs, summarised for the Runs page without pandas.

Listing stays fast: each folder's summary is kept until its run.json or results.jsonl
changes (size and mtime), so the first page of `converse view` reads each file once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.runner.results import RESULTS, RUN_META, RunDir, RunError, read_rows
from evals.view.errors import ViewError

# A run id names a folder: letters, digits, dot, dash and underscore, never a path.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def checked_run(run_id: str, root: Path) -> RunDir:
    """The run folder `run_id` names, or a ViewError (404) when it is not a run's name."""
    if not SAFE_ID.fullmatch(run_id) or ".." in run_id:
        raise ViewError(
            404,
            f"{run_id!r} is not a run id",
            "run ids are folder names under reports/runs, such as 20260101-120000-ab12",
        )
    try:
        return RunDir.existing(run_id, root)
    except RunError as exc:
        raise ViewError(404, exc.message, exc.hint) from None


@dataclass
class RunSummary:
    """One line of the Runs page."""

    run_id: str
    created: str = ""
    commit: str = ""
    dirty: bool | None = None
    suites: list[str] = field(default_factory=list)
    providers: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    gates_passed: bool | None = None
    rows: int = 0
    failed: int = 0
    errors: int = 0
    cost_usd: float | None = None
    problem: str = ""  # why the folder could not be read, when it could not


_CACHE: dict[Path, tuple[tuple[int, ...], RunSummary]] = {}


def _stamp(path: Path) -> tuple[int, ...]:
    out: list[int] = []
    for name in (RUN_META, RESULTS):
        try:
            st = (path / name).stat()
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [-1, -1]
    return tuple(out)


def _summarise(run_id: str, path: Path) -> RunSummary:
    found = RunSummary(run_id)
    try:
        meta: Any = json.loads((path / RUN_META).read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        found.problem = f"run.json cannot be read ({exc.__class__.__name__})"
        return found
    if not isinstance(meta, dict):
        found.problem = "run.json is not a JSON object"
        return found
    git = meta.get("git") if isinstance(meta.get("git"), dict) else {}
    found.created = str(meta.get("created_at") or "")
    found.commit = str(git.get("commit") or "")[:12]
    found.dirty = git.get("dirty") if isinstance(git.get("dirty"), bool) else None
    info = meta.get("suite_info") if isinstance(meta.get("suite_info"), list) else []
    found.suites = [str(s.get("name")) for s in info if isinstance(s, dict)]
    gates = meta.get("gates_passed")
    found.gates_passed = gates if isinstance(gates, bool) else None
    providers: set[str] = set()
    prompts: set[str] = set()
    costs: list[float] = []
    priced = True
    for row in read_rows(path / RESULTS, warn=None):
        found.rows += 1
        found.failed += row["status"] == "fail"
        found.errors += row["status"] == "error"
        providers.add(row["provider"])
        prompts.update(f"{k}={v}" for k, v in (row.get("prompt") or {}).items())
        if row.get("cost_usd") is None:
            priced = False
        else:
            costs.append(float(row["cost_usd"]))
    found.providers = sorted(providers)
    found.prompts = sorted(prompts)
    found.cost_usd = sum(costs) if priced and costs else None
    return found


def list_runs(root: Path) -> list[RunSummary]:
    """Every run folder, newest first; a folder that cannot be read says why."""
    runs = root / "runs"
    if not runs.is_dir():
        return []
    out: list[RunSummary] = []
    for path in sorted(runs.iterdir(), reverse=True):
        if not path.is_dir() or not SAFE_ID.fullmatch(path.name):
            continue
        stamp = _stamp(path)
        cached = _CACHE.get(path)
        if cached is None or cached[0] != stamp:
            cached = (stamp, _summarise(path.name, path))
            _CACHE[path] = cached
        out.append(cached[1])
    return out


def filtered(runs: list[RunSummary], suite: str, provider: str) -> list[RunSummary]:
    """The runs that ran `suite` and `provider` (an empty filter matches every run)."""
    return [
        r
        for r in runs
        if (not suite or suite in r.suites) and (not provider or provider in r.providers)
    ]
