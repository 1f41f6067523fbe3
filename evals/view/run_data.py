"""One run as the Run, Failure and Review pages read it: the report's own frame and groups.

Loading takes evals.report.load_run's steps (rows, summarize with the run's gates, frame with
the reviews) and keeps each result until the files it came from change, so paging through a
run of thousands of rows, or recording a verdict, does not re-read every row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from evals.report.frame import earlier_verdicts, frame
from evals.report.reviews import Review, load_reviews
from evals.runner.results import RESULTS, REVIEWS, RUN_META, RunDir, RunError
from evals.runner.run_meta import gates_of, reducers_of
from evals.runner.summary import GroupResult, summarize
from evals.view.errors import ViewError
from evals.view.runs import check_run_id, file_stamp

CASE_KEY = ["suite", "case_id", "provider"]


@dataclass(frozen=True)
class LoadedRun:
    """A run's folder, run.json, rows as the report's frame, its groups, and its raw rows."""

    run: RunDir
    meta: dict[str, Any]
    df: pd.DataFrame
    groups: list[GroupResult]
    rows: list[dict[str, Any]]
    # page parts built from this state, by name: dropped with it when any file changes
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # page parts that do not read the reviews: kept while run.json and results.jsonl are
    static: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

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


# Two levels, so that a verdict (which changes reviews.jsonl only) re-reads no rows: the rows
# and groups per run.json + results.jsonl, and the frame per those and reviews.jsonl.
_ROWS: dict[Path, tuple[tuple[int, ...], tuple[Any, ...]]] = {}
_CACHE: dict[Path, tuple[tuple[int, ...], LoadedRun]] = {}


def loaded(run_id: str, root: Path) -> LoadedRun:
    """The run as `converse report` reads it (evals.report.load_run's steps), kept until its
    files change; a ViewError when it cannot be read."""
    run = checked_run(run_id, root)
    rows_stamp = file_stamp(run.path, (RUN_META, RESULTS))
    stamp = (*rows_stamp, *file_stamp(run.path, (REVIEWS,)))
    cached = _CACHE.get(run.path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    kept = _ROWS.get(run.path)
    if kept is None or kept[0] != rows_stamp:
        try:
            meta = run.read_meta()
        except RunError as exc:
            raise ViewError(422, exc.message, exc.hint) from None
        rows = run.latest_rows()
        if not rows:
            raise ViewError(
                422, f"run {run_id} has no results yet", f"run `converse eval --resume {run_id}`"
            )
        unreviewed = frame(rows)
        kept = (
            rows_stamp,
            (meta, rows, summarize(rows, gates_of(meta), reducers_of(meta)), unreviewed, {}),
        )
        _ROWS[run.path] = kept
    meta, rows, groups, unreviewed, static = kept[1]
    df = with_reviews(unreviewed, load_reviews(run))
    found = LoadedRun(run, meta, df, groups, rows, static=static)
    _CACHE[run.path] = (stamp, found)
    return found


def with_reviews(
    df: pd.DataFrame, reviews: Mapping[tuple[str, str, str], Sequence[Review]]
) -> pd.DataFrame:
    """The frame's review columns filled as evals.report.frame.frame fills them (the newest
    verdict counts, the earlier ones in review_history), without rebuilding the rest."""
    if not reviews:
        return df
    out = df.copy()
    keys = list(zip(out["suite"], out["case_id"], out["provider"], strict=True))
    newest: list[Review | None] = [
        history[-1] if (history := reviews.get(k)) else None for k in keys
    ]
    out["review"] = [r.verdict if r else "" for r in newest]
    out["review_note"] = [r.note if r else "" for r in newest]
    out["reviewer"] = [r.reviewer if r else "" for r in newest]
    out["reviewed_at"] = [r.at if r else "" for r in newest]
    out["review_history"] = [earlier_verdicts(reviews.get(k) or []) for k in keys]
    return out


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
    # a last line that is a whole review without its newline is fine: the next append ends it
    return None


def case_key(suite: str, case: str, provider: str) -> tuple[str, str, str]:
    """The key from query parameters, refused (400) when one is missing."""
    if not suite or not case or not provider:
        raise ViewError(400, "a case is named by suite, case and provider", "follow a link")
    return (suite, case, provider)
