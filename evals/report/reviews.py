"""Reviewers' verdicts on cases, kept beside the run in reviews.jsonl (append-only).

Every verdict is kept: the newest on a case counts, and the report shows the earlier ones. The
same verdict given again (a key pressed twice) is not kept twice. An append first mends a last
line that lacks its newline (a whole review, written by something that did not end it), refuses
a file whose last line is torn or that is not a regular file, and reads back what it wrote.
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
# A note says why in a sentence or a paragraph; the review page's field holds as many.
MAX_NOTE = 2_000


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
    """Append a verdict; the newest verdict on a case counts, and the earlier ones are kept.

    The newest verdict given again (same verdict, note and reviewer) is returned as it is,
    not appended a second time.
    """
    if len(note) > MAX_NOTE:
        raise RunError(
            f"the note is {len(note):,} characters",
            f"keep it to {MAX_NOTE:,}; link to a longer write-up",
        )
    suite_name, case_id, provider_name = _resolve(run, case, suite, provider)
    history = load_reviews(run).get((suite_name, case_id, provider_name)) or []
    newest = history[-1] if history else None
    who = reviewer or current_reviewer()
    if newest is not None and (newest.verdict, newest.note, newest.reviewer) == (
        verdict,
        note,
        who,
    ):
        return newest
    review = Review(
        suite=suite_name,
        case_id=case_id,
        provider=provider_name,
        verdict=verdict,
        note=note,
        reviewer=who,
        at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    _append(run, json.dumps(review.__dict__, ensure_ascii=False) + "\n")
    kept = load_reviews(run).get(review.key) or []
    if review not in kept:
        raise RunError(
            f"the verdict on {suite_name}/{case_id} was written to {REVIEWS} in run {run.run_id} "
            "but does not read back",
            f"look at the end of {run.path / REVIEWS}",
        )
    return review


def _whole_review(line: bytes) -> bool:
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(data, dict) and {"suite", "case_id", "verdict"} <= data.keys()


def _append(run: RunDir, line: str) -> None:
    """Append one line, mending a missing final newline; refuse a file that cannot be
    appended to safely (not a regular file, or a last line that is not a whole review)."""
    path = run.path / REVIEWS
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise RunError(
            f"{REVIEWS} in run {run.run_id} is not a regular file", "move it away, then review"
        )
    with path.open("a+b") as handle:
        handle.seek(0)
        data = handle.read()
        if data and not data.endswith(b"\n"):
            tail = data.rsplit(b"\n", 1)[-1]
            if not _whole_review(tail):
                raise RunError(
                    f"the last line of {REVIEWS} in run {run.run_id} is torn "
                    "(not a whole review): nothing was recorded",
                    f"remove or finish that line in {path}, then review again",
                )
            handle.write(b"\n")  # a whole review without its newline: end it
        handle.write(line.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())


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
