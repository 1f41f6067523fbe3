"""A run's folder: run.json (what was asked), results.jsonl (one row per scored case).

Rows are appended and flushed as each case finishes, so a run that is killed loses at most the
case in flight; a torn last line is dropped when the run is resumed. Rows that cannot be read
(not UTF-8, not JSON, not a row) are skipped, counted, and named in one warning on stderr.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.reports_path import reports_dir as reports_dir
from pipeline.errors import ConverseError
from pipeline.redact import redact, redact_argv, redact_data, redact_strings

RESULTS = "results.jsonl"
RUN_META = "run.json"
REVIEWS = "reviews.jsonl"
# fsync at most this often: flush() already protects against a crash of this process; fsync
# bounds what a power loss can take.
FSYNC_SECONDS = 0.5

# Told of each row once it is in the run folder: the row, and its JSON text as written there.
OnRow = Callable[[dict[str, Any], str], None]
# What new_run_id() makes; ids from the command line must match it before any path is built.
RUN_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{4}")
# A row needs these fields with these types, and the optional ones are null or of their type
# (bool is not an int here): the report reads them without further checks.
_ROW_FIELDS: dict[str, tuple[type, ...]] = {
    "suite": (str,),
    "case_id": (str,),
    "provider": (str,),
    "target": (str,),
    "status": (str,),
    "variant": (str,),
    "epoch": (int,),
}
_OPTIONAL_FIELDS: dict[str, tuple[type, ...]] = {
    "tags": (list,),
    "tokens": (dict,),
    "input": (dict,),
    "expected": (dict, list),  # a conversation lists its checked turns
    "got": (dict,),
    "prompt": (dict,),
    "latency_ms": (int, float),
    "truncated": (int,),
    "cost_usd": (int, float),
    "perturbation": (str,),
    "reading": (str,),
    "reading_scores": (list,),
    "confidences": (list,),
    "failed_by": (str,),
    "model": (str,),
    "provider_label": (str,),
    "why": (str,),
    "error": (str,),
    "checks": (list,),
}
# What a list field's items must be (the report's frame and the viewer's pages read them so).
_LIST_ITEMS: dict[str, type] = {
    "tags": str,
    "checks": dict,
    "expected": dict,
    "confidences": dict,
}
# A check's fields, when present.
_CHECK_FIELDS: dict[str, tuple[type, ...]] = {"name": (str,), "turn": (int,), "why": (str,)}
_STATUSES = ("pass", "fail", "error")
_LINES_NAMED = 5


def redact_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """run.json as a record may keep it (pipeline/redact.py): every URL password and key
    hidden, the command line's secret options and every provider option whose name says key,
    token, secret or password. Written to the folder and the run store alike."""
    out: dict[str, Any] = redact_strings(meta)
    if isinstance(meta.get("argv"), list):
        out["argv"] = redact_argv([str(a) for a in meta["argv"]])
    config = out.get("config")
    if isinstance(config, dict) and isinstance(config.get("provider_options"), dict):
        config["provider_options"] = redact_data(meta["config"]["provider_options"])
    return out


# The fields of a row a secret can reach: the provider's label (a server URL) and an error's
# text (an SDK may quote the URL it failed on). Cases and answers are the suite's own data.
_SECRET_ROW_FIELDS = ("provider_label", "error", "why")


def redact_row(row: dict[str, Any]) -> dict[str, Any]:
    """A result row as a record may keep it (pipeline/redact.py)."""
    hidden = {k: redact(row[k]) for k in _SECRET_ROW_FIELDS if isinstance(row.get(k), str)}
    return row | hidden if any(hidden[k] != row[k] for k in hidden) else row


class RunError(ConverseError):
    """A run cannot be found, resumed or reported."""


def read_meta_file(path: Path) -> dict[str, Any]:
    """A run.json, or a RunError naming it when it cannot be read or is not a run's."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else exc.__class__.__name__
        raise RunError(
            f"{path} cannot be read ({reason})",
            "restore it from a backup, or start a new run",
        ) from None
    if not isinstance(data, dict):
        raise RunError(
            f"{path} is not a run description (a JSON object)",
            "restore it from a backup, or start a new run",
        )
    from evals.runner.meta import checked_meta  # pydantic: when a run is read

    return checked_meta(path, data, RunError)


def new_run_id() -> str:
    """A sortable, unique run id: UTC time plus a random suffix."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def check_run_id(run_id: str) -> str:
    """The run id, or a RunError when it is not one this project makes (never a path)."""
    if not RUN_ID.fullmatch(run_id):
        raise RunError(
            f"{run_id!r} is not a run id",
            "run ids look like 20260101-120000-ab12 (see reports/runs)",
        )
    return run_id


def row_key(row: dict[str, Any]) -> tuple[str, str, str, str, int, str]:
    """What identifies a row within a run: suite, case, provider, prompt variant, epoch and
    perturbation ("" for the case as written; rows from before perturbations have none)."""
    return (
        row["suite"],
        row["case_id"],
        row["provider"],
        row["variant"],
        int(row["epoch"]),
        row.get("perturbation") or "",
    )


class RunDir:
    """The folder of one run."""

    def __init__(self, run_id: str, root: Path | None = None) -> None:
        if not run_id or run_id in (".", "..") or "/" in run_id or "\\" in run_id:
            raise RunError(f"{run_id!r} is not a run id", "a run id is a folder name, not a path")
        self.run_id = run_id
        self.path = (root or reports_dir()) / "runs" / run_id
        self._lock = threading.Lock()
        self._handle: Any = None
        self._synced = 0.0
        self._warned = False

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
        """Write run.json atomically, with no secret in it (`redact_meta`)."""
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.path / f".{RUN_META}.tmp"
        text = json.dumps(redact_meta(meta), indent=2, ensure_ascii=False)
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(self.path / RUN_META)

    def read_meta(self) -> dict[str, Any]:
        """run.json, or a RunError when it cannot be read."""
        return read_meta_file(self.path / RUN_META)

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

    def append(self, row: dict[str, Any]) -> str:
        """Append one row and flush it to the OS before returning; returns the row's JSON text
        (a run store keeps the same text instead of encoding the row again)."""
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        line = text + "\n"
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
        return text

    def close(self) -> None:
        """fsync and close the results file."""
        with self._lock:
            if self._handle is not None:
                self._handle.flush()
                os.fsync(self._handle.fileno())
                self._handle.close()
                self._handle = None

    def rows(self) -> list[dict[str, Any]]:
        """Every complete row, in the order written (a torn last line is skipped).

        Unreadable rows are reported once per RunDir, however often the rows are read.
        """
        rows = read_rows(self.results_path, None if self._warned else warn_stderr)
        self._warned = True
        return rows

    def latest_rows(self) -> list[dict[str, Any]]:
        """One row per key: the last written (a retried case replaces its error)."""
        return latest(self.rows())


def row_problem(row: Any) -> str | None:
    """Why a parsed line is not a row, or None when it is one."""
    if not isinstance(row, dict):
        return "not a JSON object"
    for name, types in _ROW_FIELDS.items():
        value = row.get(name)
        if not isinstance(value, types) or isinstance(value, bool):
            return f"field {name} is missing or not of type {types[0].__name__}"
    for name, types in _OPTIONAL_FIELDS.items():
        value = row.get(name)
        if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
            return f"field {name} is not of type {types[0].__name__}"
    for name, item_type in _LIST_ITEMS.items():
        value = row.get(name)
        if isinstance(value, list) and not all(isinstance(v, item_type) for v in value):
            return f"field {name} holds an item that is not of type {item_type.__name__}"
    for check in row.get("checks") or []:
        for name, types in _CHECK_FIELDS.items():
            value = check.get(name)
            if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
                return f"field checks.{name} is not of type {types[0].__name__}"
    if row["status"] not in _STATUSES:
        return f"field status is {row['status']!r}"
    tokens = row.get("tokens") or {}
    for name in ("input", "output", "cache_read", "cache_creation"):
        if name in tokens and (not isinstance(tokens[name], int) or isinstance(tokens[name], bool)):
            return f"field tokens.{name} is not of type int"
    return None


def warn_stderr(message: str) -> None:
    """The default for warnings while reading: one line on stderr."""
    print(f"warning: {message}", file=sys.stderr)


def read_rows(path: Path, warn: Callable[[str], None] | None = warn_stderr) -> list[dict[str, Any]]:
    """Rows of a results file; a torn last line is dropped, unreadable lines are skipped.

    Skipped lines are counted and named (the first few) in one warning, so a damaged file
    still reports what it holds.
    """
    if not path.is_file():
        return []
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                break
            try:
                row = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                bad.append(f"{number} (not UTF-8)")
                continue
            except json.JSONDecodeError:
                bad.append(f"{number} (not JSON)")
                continue
            problem = row_problem(row)
            if problem:
                bad.append(f"{number} ({problem})")
                continue
            # a folder written before redaction: only a line holding "@" (a URL's password),
            # "sk-" or "earer" (a bearer token) can need it, and most hold none
            if b"@" in raw or b"sk-" in raw or b"earer" in raw:
                row = redact_row(row)
            rows.append(row)
    if bad and warn is not None:
        named = ", ".join(bad[:_LINES_NAMED]) + (", ..." if len(bad) > _LINES_NAMED else "")
        warn(f"{path}: skipped {len(bad):,} unreadable row(s): line {named}")
    return rows


def latest(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the last row of each key, in first-seen order."""
    found: dict[tuple[str, str, str, str, int, str], dict[str, Any]] = {}
    for row in rows:
        found[row_key(row)] = row
    return list(found.values())
