"""What still blocks a release of a run, and writing its release report.

The blockers are the ones `converse report --release` acts on (evals/report/release.py):
failing cases without a reviewer verdict, failed gates, a dirty tree, untracked prompt files
and cassettes the run replayed whose prompts have changed since they were recorded. Any of
them refuses the release report unless a reason to override them is typed, which heads it.
"""

from __future__ import annotations

import re
from pathlib import Path

from evals.report import write_release
from evals.report.release import Blockers, release_blockers
from evals.runner.results import RunError
from evals.view.errors import ViewError
from evals.view.run_data import LoadedRun

# The same rule as `converse report --release`: a version names a file, never a path.
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+-]{0,63}")


def blockers(found: LoadedRun) -> Blockers:
    """The run's blockers (cassettes: only the ones its rows name, checked now)."""
    return release_blockers(found.meta, found.df, found.groups)


def release(found: LoadedRun, version: str, root: Path, override: str = "") -> Path:
    """Write reports/releases/VERSION.md through `converse report --release`'s code; an
    override's reason ("" for none) is needed while anything blocks."""
    if not VERSION.fullmatch(version) or ".." in version:
        raise ViewError(400, f"{version!r} is not a release version", "use a version like 0.2.0")
    target = root / "releases" / f"{version}.md"
    if target.exists():
        raise ViewError(
            409,
            f"release report {version} already exists ({target})",
            "choose another version; an existing release report is never overwritten here",
        )
    try:
        return write_release(
            found.run.run_id,
            version,
            root=root,
            out_dir=root / "releases",
            override=override if override.strip() else None,
        )
    except RunError as exc:
        raise ViewError(409, exc.message, exc.hint) from None
