"""The commit a run was made from, and whether tracked files had uncommitted changes."""

from __future__ import annotations

import subprocess
from functools import cache
from typing import Any

from pipeline.config import PROJECT_ROOT


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


@cache
def git_state() -> dict[str, Any]:
    """{"commit": sha or None, "dirty": bool or None}, plus "untracked_prompts" when any.

    A prompt file git does not track yet changes what a run renders as much as an edited one,
    so it makes the run dirty too; other untracked files (notes, scratch runs) do not.
    """
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = _git("status", "--porcelain", "--untracked-files=no")
    untracked = _git("ls-files", "--others", "--exclude-standard", "--", "prompts")
    new_prompts = sorted(untracked.splitlines()) if untracked else []
    state: dict[str, Any] = {
        "commit": commit,
        "dirty": bool(status) or bool(new_prompts) if status is not None else None,
    }
    if new_prompts:
        state["untracked_prompts"] = new_prompts
    return state
