"""A cache of provider answers, so an unchanged case is not asked again.

The key is the case's content hash, the provider, its model and fingerprint, the hashes of the
prompt templates that can change the answer, and the epoch (so epochs stay independent samples).
Answers are cached before scoring, so a new scorer version rescores cached answers. Errors are
never cached as answers: the key is asked again on the next run. What the error was is kept
apart (`errors`), so the row of that later answer can say it was asked again after an error —
otherwise two runs of the same version, one answered from the cache and one not, would
disagree on that case without saying why.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from evals.runner.outcome import Outcome


def cache_key(
    *,
    case_hash: str,
    provider: str,
    model: str,
    fingerprint: str,
    prompts: dict[str, str],
    epoch: int,
) -> str:
    """The cache key of one provider answer."""
    payload = json.dumps(
        {
            "case": case_hash,
            "provider": provider,
            "model": model,
            "fingerprint": fingerprint,
            "prompts": prompts,
            "epoch": epoch,
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


class ResultCache:
    """SQLite file under reports/cache/, shared by runs; one connection behind a lock."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, outcome TEXT NOT NULL)"
        )
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS errors (key TEXT PRIMARY KEY, error TEXT NOT NULL)"
        )

    def get(self, key: str) -> Outcome | None:
        """The cached answer, or None."""
        with self._lock:
            row = self._db.execute("SELECT outcome FROM answers WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data: dict[str, Any] = json.loads(row[0])
        return Outcome.from_dict(data)

    def earlier_error(self, key: str) -> str | None:
        """The error an earlier attempt at this key ended in (None when none is known)."""
        with self._lock:
            row = self._db.execute("SELECT error FROM errors WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, outcome: Outcome) -> None:
        """Remember an answer; an error is remembered only as an error, never served."""
        if outcome.error is not None:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO errors VALUES (?, ?)", (key, outcome.error[:500])
                )
            return
        text = json.dumps(outcome.as_dict(), ensure_ascii=False)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, text))

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
