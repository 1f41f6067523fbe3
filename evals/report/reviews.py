"""Reviewers' verdicts on cases, kept beside the run in reviews.jsonl (append-only).

Every verdict is kept: the newest on a case counts, and the report shows the earlier ones.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from evals.runner.results import REVIEWS, RunDir, RunError

Verdict = Literal["pass", "fail"]


@dataclass(frozen=True)
class Review:
    """One reviewer's verdict on a case of a run (all its epochs)."""

    suite: str
    case_id: str
    provider: str
    verdict: Verdict
    note: str
    reviewer: str
    at: str

    @property
    def key(self) -> tuple[str, str, str]:
        """suite, case, provider."""
        return (self.suite, self.case_id, self.provider)


def current_reviewer() -> str:
    """$USER, else the login name."""
    # the login name, not a setting (CONVERSE_REVIEWER is the setting, read by the commands)
    name = os.environ.get("USER") or os.environ.get("USERNAME")
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _resolve(
    run: RunDir, case: str, suite: str | None, provider: str | None
) -> tuple[str, str, str]:
    if suite is None and "/" in case:
        suite, case = case.split("/", 1)
    rows = [r for r in run.latest_rows() if r["case_id"] == case]
    if suite is not None:
        rows = [r for r in rows if r["suite"] == suite]
    if provider is not None:
        rows = [r for r in rows if r["provider"] == provider]
    if not rows:
        raise RunError(
            f"run {run.run_id} has no case {case!r}", "check the case id (or SUITE/CASE)"
        )
    suites = sorted({r["suite"] for r in rows})
    if len(suites) > 1:
        raise RunError(
            f"case {case!r} is in several suites: {', '.join(suites)}", "name it as SUITE/CASE"
        )
    providers = sorted({r["provider"] for r in rows})
    if len(providers) > 1:
        raise RunError(
            f"case {case!r} ran on several providers: {', '.join(providers)}", "pass --provider"
        )
    return suites[0], case, providers[0]


def add_review(
    run: RunDir,
    case: str,
    verdict: Verdict,
    note: str,
    *,
    suite: str | None = None,
    provider: str | None = None,
    reviewer: str | None = None,
) -> Review:
    """Append a verdict; the newest verdict on a case counts, and the earlier ones are kept."""
    suite_name, case_id, provider_name = _resolve(run, case, suite, provider)
    review = Review(
        suite=suite_name,
        case_id=case_id,
        provider=provider_name,
        verdict=verdict,
        note=note,
        reviewer=reviewer or current_reviewer(),
        at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    with (run.path / REVIEWS).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(review.__dict__, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return review


def load_reviews(run: RunDir) -> dict[tuple[str, str, str], list[Review]]:
    """Every verdict per (suite, case, provider), oldest first: the last one counts."""
    path = run.path / REVIEWS
    found: dict[tuple[str, str, str], list[Review]] = {}
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            data: dict[str, Any] = json.loads(line)
            review = Review(**data)
        except (json.JSONDecodeError, TypeError):
            continue
        found.setdefault(review.key, []).append(review)
    return found
