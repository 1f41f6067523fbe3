"""A run's folder: run.json (what was asked), results.jsonl (one row per scored case).

Rows are appended and flushed as each case finishes, so a run that is killed loses at most the
case in flight; a torn last line is dropped when the run is resumed.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.config import PROJECT_ROOT
from pipeline.errors import ConverseError

RESULTS = "results.jsonl"
RUN_META = "run.json"
REVIEWS = "reviews.jsonl"
# fsync at most this often: flush() already protects against a crash of this process; fsync
# bounds what a power loss can take.
FSYNC_SECONDS = 0.5


class RunError(ConverseError):
    """A run cannot be found, resumed or reported."""


def reports_dir() -> Path:
    """Where runs and release reports go (`CONVERSE_REPORTS_DIR` overrides)."""
    override = os.environ.get("CONVERSE_REPORTS_DIR")
    if override:
        return Path(override)
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / "reports"
    return Path.cwd() / "reports"


def new_run_id() -> str:
    """A sortable, unique run id: UTC time plus a random suffix."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def row_key(row: dict[str, Any]) -> tuple[str, str, str, str, int]:
    """What identifies a row within a run: suite, case, provider, prompt variant, epoch."""
    return (row["suite"], row["case_id"], row["provider"], row["variant"], int(row["epoch"]))


class RunDir:
    """The folder of one run."""

    def __init__(self, run_id: str, root: Path | None = None) -> None:
        self.run_id = run_id
        self.path = (root or reports_dir()) / "runs" / run_id
        self._lock = threading.Lock()
        self._handle: Any = None
        self._synced = 0.0

    @classmethod
    def existing(cls, run_id: str, root: Path | None = None) -> RunDir:
        """A run that must already exist."""
        run = cls(run_id, root)
        if not (run.path / RUN_META).is_file():
            runs = run.path.parent
            known = (
                sorted(p.name for p in runs.iterdir() if p.is_dir())[-5:] if runs.is_dir() else []
            )
            hint = f"recent runs: {', '.join(known)}" if known else f"no runs under {runs}"
            raise RunError(f"no run {run_id!r} under {runs}", hint)
        return run

    @property
    def results_path(self) -> Path:
        """results.jsonl."""
        return self.path / RESULTS

    def write_meta(self, meta: dict[str, Any]) -> None:
        """Write run.json atomically."""
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.path / f".{RUN_META}.tmp"
        tmp.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(self.path / RUN_META)

    def read_meta(self) -> dict[str, Any]:
        """run.json."""
        data: dict[str, Any] = json.loads((self.path / RUN_META).read_text(encoding="utf-8"))
        return data

    def repair(self) -> int:
        """Cut a torn last line left by a killed run; returns the bytes removed."""
        path = self.results_path
        if not path.is_file():
            return 0
        with path.open("rb+") as handle:
            data = handle.read()
            if not data or data.endswith(b"\n"):
                return 0
            keep = data.rfind(b"\n") + 1
            handle.truncate(keep)
            return len(data) - keep

    def append(self, row: dict[str, Any]) -> None:
        """Append one row and flush it to the OS before returning."""
        line = json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            if self._handle is None:
                self.path.mkdir(parents=True, exist_ok=True)
                self._handle = self.results_path.open("a", encoding="utf-8")
            self._handle.write(line)
            self._handle.flush()
            now = time.monotonic()
            if now - self._synced >= FSYNC_SECONDS:
                os.fsync(self._handle.fileno())
                self._synced = now

    def close(self) -> None:
        """fsync and close the results file."""
        with self._lock:
            if self._handle is not None:
                self._handle.flush()
                os.fsync(self._handle.fileno())
                self._handle.close()
                self._handle = None

    def rows(self) -> list[dict[str, Any]]:
        """Every complete row, in the order written (a torn last line is skipped)."""
        return read_rows(self.results_path)

    def latest_rows(self) -> list[dict[str, Any]]:
        """One row per key: the last written (a retried case replaces its error)."""
        return latest(self.rows())


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a results file, skipping a torn or unreadable line."""
    if not path.is_file():
        return []
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.endswith("\n"):
                break
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return rows


def latest(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the last row of each key, in first-seen order."""
    found: dict[tuple[str, str, str, str, int], dict[str, Any]] = {}
    for row in rows:
        found[row_key(row)] = row
    return list(found.values())
