"""The prompt templates two runs used differently, and their text side by side as a diff.

Rows record each template's family, version and sha256. A template's text is taken from the
prompts folder when its hash still matches, else from git at the run's commit (the file as
the run read it, when that commit was clean), else it is reported as not available.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evals.prompt_refs import prompt_refs
from pipeline.config import PROJECT_ROOT
from pipeline.errors import PromptError
from pipeline.prompting import default_library

Ref = tuple[str, str]  # (version, sha256)


@dataclass(frozen=True)
class PromptChange:
    """One family whose version or hash differs between the baseline and this run."""

    family: str
    before: list[Ref]
    after: list[Ref]
    diff: list[str]  # unified diff lines; empty when a text was not available
    note: str


def used_refs(rows: Iterable[dict[str, Any]]) -> dict[str, set[Ref]]:
    """Family -> every (version, sha256) the rows record."""
    found: dict[str, set[Ref]] = {}
    for row in rows:
        for ref in prompt_refs(row):
            found.setdefault(ref["family"], set()).add((ref["version"], ref["sha256"]))
    return found


# A commit as run.json records it: hex only, so a crafted one (`--output=x`) is never an option.
_COMMIT = re.compile(r"[0-9a-f]{7,64}")


def _git_text(commit: str, family: str, version: str) -> str | None:
    if not _COMMIT.fullmatch(commit):
        return None
    try:
        # --end-of-options: what follows is a revision, whatever it starts with
        done = subprocess.run(
            ["git", "show", "--end-of-options", f"{commit}:prompts/{family}/{version}.j2"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def template_text(family: str, ref: Ref, commit: str) -> str | None:
    """The template's text with that hash, when it can still be found."""
    version, sha = ref
    try:
        text, now = default_library().source(family, version)
        if now.sha256 == sha:
            return text
    except PromptError:
        pass
    old = _git_text(commit, family, version)
    if old is not None and hashlib.sha256(old.encode("utf-8")).hexdigest() == sha:
        return old
    return None


def prompt_changes(
    base_rows: list[dict[str, Any]],
    rows: list[dict[str, Any]],
    base_commit: str,
    commit: str,
) -> list[PromptChange]:
    """Every family used by either run whose (version, hash) set differs, with a diff."""
    before, after = used_refs(base_rows), used_refs(rows)
    changes: list[PromptChange] = []
    for family in sorted(before.keys() | after.keys()):
        old, new = sorted(before.get(family, set())), sorted(after.get(family, set()))
        if old == new:
            continue
        note = ""
        diff: list[str] = []
        if not old or not new:
            note = "used by one run only"
        elif len(old) > 1 or len(new) > 1:
            note = "several versions in a run: the first of each is compared"
        if old and new:
            a = template_text(family, old[0], base_commit)
            b = template_text(family, new[0], commit)
            if a is None or b is None:
                note = (note + "; " if note else "") + (
                    "a template's text with the recorded hash is no longer available"
                )
            else:
                diff = list(
                    difflib.unified_diff(
                        a.splitlines(),
                        b.splitlines(),
                        f"{family}/{old[0][0]} ({old[0][1][:12]})",
                        f"{family}/{new[0][0]} ({new[0][1][:12]})",
                        lineterm="",
                    )
                )
                if not diff:
                    note = "same text"
        changes.append(PromptChange(family, old, new, diff, note))
    return changes
