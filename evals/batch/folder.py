"""A batch run's batches, kept in its run folder so any process can poll and collect them.

`batches.jsonl` gets one line per submitted batch, written as soon as the API has given its id
(its suite, step, size and the custom_ids it holds). A collected batch's results are written to
`batches/<id>.jsonl` through a temporary file and a rename, so a results file is either whole or
absent: a batch without one is still outstanding, and `--resume` polls it. Nothing is deleted.

A request that expired, was canceled or errored for a reason a retry can fix (overloaded, rate
limited, an API error) is asked for again in a later batch, up to `MAX_ATTEMPTS` submissions;
after that its last outcome stands (an error row names it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.providers.claude import BatchResult, BatchStatus

SUBMISSIONS = "batches.jsonl"
RESULTS_DIR = "batches"
MAX_ATTEMPTS = 3
RETRYABLE_ERRORS = frozenset({"api_error", "overloaded_error", "rate_limit_error"})


def _final(result: BatchResult) -> bool:
    """Whether an outcome stands, or the request should be asked for again."""
    if result.kind == "succeeded":
        return True
    if result.kind == "errored":
        return str((result.error or {}).get("type")) not in RETRYABLE_ERRORS
    return False  # canceled, expired


class BatchFolder:
    """The batches of one run folder."""

    def __init__(self, run_path: Path) -> None:
        self.path = run_path

    @property
    def submissions_path(self) -> Path:
        """batches.jsonl."""
        return self.path / SUBMISSIONS

    def results_path(self, batch_id: str) -> Path:
        """Where a collected batch's results are kept."""
        return self.path / RESULTS_DIR / f"{batch_id}.jsonl"

    def submissions(self) -> list[dict[str, Any]]:
        """Every submitted batch, oldest first (a torn last line, from a kill, is skipped)."""
        if not self.submissions_path.is_file():
            return []
        out = []
        for line in self.submissions_path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return out

    def steps(self) -> int:
        """How many submission steps the run has taken."""
        return max((int(s["step"]) for s in self.submissions()), default=0)

    def outstanding(self) -> list[dict[str, Any]]:
        """Submitted batches whose results are not collected yet."""
        return [s for s in self.submissions() if not self.results_path(s["id"]).is_file()]

    def record_submission(
        self, status: BatchStatus, suite: str, step: int, custom_ids: list[str]
    ) -> None:
        """Keep a new batch's id before anything else happens."""
        line = {
            "id": status.id,
            "suite": suite,
            "step": step,
            "requests": len(custom_ids),
            "submitted_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "custom_ids": custom_ids,
        }
        self.path.mkdir(parents=True, exist_ok=True)
        with self.submissions_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def save_results(self, batch_id: str, results: Iterable[BatchResult]) -> int:
        """Write a batch's results whole (temporary file, fsync, rename); how many there were."""
        target = self.results_path(batch_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        count = 0
        with partial.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(target)
        return count

    def answers(self) -> dict[str, BatchResult]:
        """custom_id -> the outcome that stands, from every collected batch."""
        attempts: dict[str, int] = {}
        for submission in self.submissions():
            for cid in submission.get("custom_ids", []):
                attempts[cid] = attempts.get(cid, 0) + 1
        answers: dict[str, BatchResult] = {}
        for submission in self.submissions():
            path = self.results_path(submission["id"])
            if not path.is_file():
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                result = BatchResult.from_dict(json.loads(line))
                if _final(result) or attempts.get(result.custom_id, 0) >= MAX_ATTEMPTS:
                    answers[result.custom_id] = result
        return answers
