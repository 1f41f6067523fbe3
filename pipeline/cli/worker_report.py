"""What `converse worker run-once` prints for the consolidation and theory-of-mind jobs."""

from __future__ import annotations

from rich.console import Console

from pipeline.cli.common import shown
from pipeline.jobs import JobsDone


def print_jobs(console: Console, done: JobsDone, provider: str) -> None:
    """One line per person and job: what it did, or why it did nothing."""
    for c in done.consolidated:
        if not c.claimed:
            line = "already run today (or claimed by another worker)"
        else:
            how = ", ".join(sorted(c.methods)) or "nothing to compare"
            line = (
                f"{c.candidates} candidate pair(s), {c.skipped_fingerprint} skipped "
                f"(compared in the last 14 days), {c.checked} checked, {c.merged} merged; "
                f"decided by: {shown(how)}"
            )
        console.print(f"Consolidation ({shown(c.person)}): {line}.", highlight=False)
        for error in c.errors:
            console.print(f"  recorded: {shown(error)}", highlight=False)
    for r in done.reflected:
        if r.skipped:
            line = f"skipped: {r.skipped}"
        else:
            line = f"{r.written} insight(s) written, {r.rejected} rejected; by: {shown(r.method)}"
            if r.problems:
                line += f" (rejected for: {shown('; '.join(sorted(set(r.problems))))})"
        console.print(f"Insights ({shown(r.person)}): {line}.", highlight=False)
        if r.error:
            console.print(f"  recorded: {shown(r.error)}", highlight=False)
    console.print(f"Model requests by: {shown(provider)}.", highlight=False)
