"""What still blocks a release of a run, and writing its release report.

The blockers are the ones `converse report --release` and CI act on: failing cases without
a reviewer verdict (the release report is refused while any is left), failed gates, and
cassettes the run replayed whose prompts have changed since they were recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from evals.report import write_release
from evals.runner.results import RunError
from evals.view.errors import ViewError
from evals.view.run_data import LoadedRun
from pipeline.config import PROJECT_ROOT

# The same rule as `converse report --release`: a version names a file, never a path.
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+-]{0,63}")


@dataclass
class Blockers:
    """What stands between a run and its release report."""

    unreviewed: list[tuple[str, str, str]] = field(default_factory=list)
    failed_gates: list[str] = field(default_factory=list)
    stale_cassettes: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def none(self) -> bool:
        """Nothing blocks."""
        return not (self.unreviewed or self.failed_gates or self.stale_cassettes)


def _cassette_path(name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else PROJECT_ROOT / path


def blockers(found: LoadedRun) -> Blockers:
    """The run's blockers (cassettes: only the ones its rows name, checked now)."""
    out = Blockers()
    out.unreviewed = [k for k in found.failed_keys if not found.reviewed(k)]
    out.failed_gates = [f for g in found.groups for f in g.gate_failures]
    used = sorted({str(c) for c in found.df["cassette"] if c})
    if used:
        from evals.cassettes.check import check_file
        from pipeline.prompting import default_library

        library = default_library()
        for name in used:
            path = _cassette_path(name)
            if not path.is_file():
                out.stale_cassettes.append((name, ["the file is gone"]))
                continue
            try:
                status = check_file(path, library)
            except (OSError, UnicodeDecodeError) as exc:
                out.stale_cassettes.append((name, [f"cannot be read ({exc.__class__.__name__})"]))
                continue
            if not status.ok:
                out.stale_cassettes.append((name, [*status.stale, *status.problems]))
    return out


def release(found: LoadedRun, version: str, root: Path) -> Path:
    """Write reports/releases/VERSION.md through `converse report --release`'s code."""
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
        return write_release(found.run.run_id, version, root=root, out_dir=root / "releases")
    except RunError as exc:
        raise ViewError(409, exc.message, exc.hint) from None
