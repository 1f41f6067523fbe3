"""The commit a run was made from, and whether its sources had uncommitted changes."""

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


# Folders whose new, untracked files change what a run measures: a template (a new v3.j2 the
# run was pointed at), a module, a suite. Untracked files elsewhere (notes, scratch) do not.
SOURCE_FOLDERS = ("prompts", "pipeline", "evals")


@cache
def git_state() -> dict[str, Any]:
    """{"commit": sha or None, "dirty": bool or None}, plus "untracked_prompts" when any: dirty
    when a tracked file changed or a file under SOURCE_FOLDERS is not tracked yet (a new prompt
    version changes what a run renders as much as an edited one)."""
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = _git("status", "--porcelain", "--untracked-files=no")
    untracked = _git("ls-files", "--others", "--exclude-standard", "--", *SOURCE_FOLDERS)
    if status is None or untracked is None:
        return {"commit": commit, "dirty": None}
    state: dict[str, Any] = {"commit": commit, "dirty": bool(status or untracked)}
    new_prompts = sorted(f for f in untracked.splitlines() if f.startswith("prompts/"))
    if new_prompts:
        state["untracked_prompts"] = new_prompts
    return state
