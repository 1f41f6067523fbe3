"""One run as the Run, Failure and Review pages read it: the report's own frame and groups.

Loading goes through evals.report.load_run (the code `converse report` uses) and is kept
until results.jsonl, run.json or reviews.jsonl changes, so paging through a run of
thousands of rows does not re-read it on every request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from evals.report import load_run
from evals.runner.results import RESULTS, REVIEWS, RUN_META, RunDir, RunError
from evals.runner.summary import GroupResult
from evals.view.errors import ViewError
from evals.view.runs import check_run_id

CASE_KEY = ["suite", "case_id", "provider"]


@dataclass(frozen=True)
class LoadedRun:
    """A run's folder, run.json, rows as the report's frame, its groups, and its raw rows."""

    run: RunDir
    meta: dict[str, Any]
    df: pd.DataFrame
    groups: list[GroupResult]
    rows: list[dict[str, Any]]

    @cached_property
    def failed_keys(self) -> list[tuple[str, str, str]]:
        """(suite, case, provider) of every failing case, in suite then case order."""
        failed = self.df[self.df["status"] == "fail"]
        keys = failed[CASE_KEY].drop_duplicates().sort_values(CASE_KEY, kind="stable")
        return [(str(s), str(c), str(p)) for s, c, p in keys.itertuples(index=False)]

    @cached_property
    def reviewed_keys(self) -> frozenset[tuple[str, str, str]]:
        """(suite, case, provider) of every case with a reviewer verdict."""
        done = self.df[self.df["review"] != ""][CASE_KEY].drop_duplicates()
        return frozenset((str(s), str(c), str(p)) for s, c, p in done.itertuples(index=False))

    def reviewed(self, key: tuple[str, str, str]) -> bool:
        """Whether the case has a reviewer verdict."""
        return key in self.reviewed_keys

    def case_rows(self, key: tuple[str, str, str]) -> list[dict[str, Any]]:
        """The stored rows of one case (every epoch and prompt variant)."""
        suite, case, provider = key
        return [
            r
            for r in self.rows
            if r["suite"] == suite and r["case_id"] == case and r["provider"] == provider
        ]


def checked_run(run_id: str, root: Path) -> RunDir:
    """The run folder `run_id` names, or a ViewError (404) when there is none."""
    try:
        return RunDir.existing(check_run_id(run_id), root)
    except RunError as exc:
        raise ViewError(404, exc.message, exc.hint) from None


_CACHE: dict[Path, tuple[tuple[int, ...], LoadedRun]] = {}


def _stamp(path: Path) -> tuple[int, ...]:
    out: list[int] = []
    for name in (RUN_META, RESULTS, REVIEWS):
        try:
            st = (path / name).stat()
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [-1, -1]
    return tuple(out)


def loaded(run_id: str, root: Path) -> LoadedRun:
    """The run, read through the report's loader (a ViewError when it cannot be read)."""
    run = checked_run(run_id, root)
    stamp = _stamp(run.path)
    cached = _CACHE.get(run.path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        run, meta, df, groups = load_run(run_id, root)
    except RunError as exc:
        raise ViewError(422, exc.message, exc.hint) from None
    found = LoadedRun(run, meta, df, groups, run.latest_rows())
    _CACHE[run.path] = (stamp, found)
    return found


def reviews_problem(run: RunDir) -> str | None:
    """Why reviews.jsonl is not a file of JSON lines (None when it is, or is absent).

    The report's loader skips lines it cannot read; the viewer instead says so and records
    nothing more, so a damaged file is looked at before verdicts are added to it.
    """
    path = run.path / REVIEWS
    if not path.exists():
        return None
    if not path.is_file():
        return f"{REVIEWS} in run {run.run_id} is not a file"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"{REVIEWS} in run {run.run_id} cannot be read ({exc.strerror})"
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            parsed = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return f"line {number} of {REVIEWS} in run {run.run_id} is not a JSON review"
        if not isinstance(parsed, dict) or not {"suite", "case_id", "verdict"} <= parsed.keys():
            return f"line {number} of {REVIEWS} in run {run.run_id} is not a review"
    if data and not data.endswith(b"\n"):
        return f"{REVIEWS} in run {run.run_id} ends in a torn line"
    return None


def case_key(suite: str, case: str, provider: str) -> tuple[str, str, str]:
    """The key from query parameters, refused (400) when one is missing."""
    if not suite or not case or not provider:
        raise ViewError(400, "a case is named by suite, case and provider", "follow a link")
    return (suite, case, provider)
