"""The run folders under reports/runs, summarised for the Runs page without pandas.

This module reads the files with json alone: importing evals.runner would load the whole
eval engine, and the first page of `converse view` must be up within a second. Listing stays
fast after that: each folder's summary is kept until its run.json or results.jsonl changes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.prompt_refs import prompt_refs
from evals.reports_path import reports_dir
from evals.view.errors import ViewError

# The file names of evals/runner/results.py (a test keeps the two in step).
RUN_META = "run.json"
RESULTS = "results.jsonl"
# A run id names a folder: letters, digits, dot, dash and underscore, never a path.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_STATUSES = ("pass", "fail", "error")


def reports_root() -> Path:
    """The reports folder the runner writes to (evals/reports_path.py)."""
    return reports_dir()


def check_run_id(run_id: str) -> str:
    """The run id, or a ViewError (404) when it could name anything but a folder."""
    if not SAFE_ID.fullmatch(run_id) or ".." in run_id:
        raise ViewError(
            404,
            f"{run_id!r} is not a run id",
            "run ids are folder names under reports/runs, such as 20260101-120000-ab12",
        )
    return run_id


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows a summary counts: complete lines that parse to an object with a status."""
    try:
        handle = path.open("rb")
    except OSError:
        return
    with handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                break
            try:
                row = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if (
                isinstance(row, dict)
                and row.get("status") in _STATUSES
                and isinstance(row.get("provider"), str)
            ):
                yield row


@dataclass
class RunSummary:
    """One line of the Runs page."""

    run_id: str
    created: str = ""
    commit: str = ""
    dirty: bool | None = None
    untracked_prompts: list[str] = field(default_factory=list)
    suites: list[str] = field(default_factory=list)
    providers: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)  # "provider: model" of every row
    samples: list[str] = field(default_factory=list)  # "suite: n of N, seed S" of sampled suites
    perturbed: bool = False  # the run has perturbed rows (`--perturb`)
    prompts: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)  # family/version of every template used
    gates_passed: bool | None = None
    rows: int = 0
    failed: int = 0
    errors: int = 0
    cost_usd: float | None = None
    problem: str = ""  # why the folder could not be read, when it could not


_CACHE: dict[Path, tuple[tuple[int, ...], RunSummary]] = {}


def file_stamp(path: Path, names: tuple[str, ...]) -> tuple[int, ...]:
    """Size and mtime of each named file in `path` (-1 for a missing one): what a cache keyed
    on a run folder's files compares."""
    out: list[int] = []
    for name in names:
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
    raw_git = meta.get("git")
    git: dict[str, Any] = raw_git if isinstance(raw_git, dict) else {}
    found.created = str(meta.get("created_at") or "")
    found.commit = str(git.get("commit") or "")[:12]
    found.dirty = git.get("dirty") if isinstance(git.get("dirty"), bool) else None
    new = git.get("untracked_prompts")
    found.untracked_prompts = [str(p) for p in new] if isinstance(new, list) else []
    raw_info = meta.get("suite_info")
    info: list[Any] = raw_info if isinstance(raw_info, list) else []
    found.suites = [str(s.get("name")) for s in info if isinstance(s, dict)]
    gates = meta.get("gates_passed")
    found.gates_passed = gates if isinstance(gates, bool) else None
    providers: set[str] = set()
    models: set[str] = set()
    samples: set[str] = set()
    prompts: set[str] = set()
    templates: set[str] = set()
    costs: list[float] = []
    priced = True
    for row in _rows(path / RESULTS):
        found.rows += 1
        found.failed += row["status"] == "fail"
        found.errors += row["status"] == "error"
        providers.add(row["provider"])
        model = row.get("model")
        models.add(f"{row['provider']}: {model}" if model else row["provider"])
        sample = row.get("sample")
        if isinstance(sample, dict):
            samples.add(f"{row.get('suite')}: {sample.get('n')} of {sample.get('of')}")
        found.perturbed = found.perturbed or bool(row.get("perturbation"))
        prompt = row.get("prompt")
        if isinstance(prompt, dict):
            prompts.update(f"{k}={v}" for k, v in prompt.items())
        templates.update(f"{ref['family']}/{ref['version']}" for ref in prompt_refs(row))
        cost = row.get("cost_usd")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            costs.append(float(cost))
        else:
            priced = False
    found.providers = sorted(providers)
    found.models = sorted(models)
    found.samples = sorted(samples)
    found.prompts = sorted(prompts)
    found.templates = sorted(templates)
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
        stamp = file_stamp(path, (RUN_META, RESULTS))
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
