"""`converse report RUN_ID --release VERSION`: the committed release report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from evals.report import tables
from evals.report.build import LABEL_NOTE, load_run
from evals.report.document import Section, Table, Text, render_markdown
from evals.runner.results import reports_dir


def write_release(
    run_id: str, version: str, *, root: Path | None = None, out_dir: Path | None = None
) -> Path:
    """Write reports/releases/<VERSION>.md from a run and its reviews."""
    run, meta, df, groups = load_run(run_id, root)
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    failing = [f for g in groups for f in g.gate_failures]
    failed = df[df["status"] == "fail"]
    unreviewed = failed[failed["review"] == ""]
    open_cases = sorted({f"{r.suite}/{r.case_id}" for r in unreviewed.itertuples()})
    sections = [
        Section(
            "Provenance",
            [
                Text(
                    f"Built {datetime.now(UTC).date().isoformat()} from run `{run.run_id}` "
                    f"(started {meta.get('created_at', '?')}, commit `{commit}`)."
                ),
                Text(LABEL_NOTE),
            ],
        ),
        Section(
            "Gates",
            [Text("Every gate passed." if not failing else "Failed: " + "; ".join(failing) + ".")],
        ),
        Section("Results", [Table(tables.summary(groups))]),
        Section(
            "After review",
            [
                Text(
                    "A reviewer's verdict replaces the automatic one for the case it names "
                    "(errors stay errors)."
                ),
                Table(tables.reviewed_accuracy(df)),
            ],
        ),
        Section("Reviewer verdicts", [Table(tables.reviews(df))]),
        Section(
            "Failures not yet reviewed",
            [
                Text(
                    f"{len(open_cases)} failing case(s) have no reviewer verdict"
                    + (": " + ", ".join(f"`{c}`" for c in open_cases[:60]) if open_cases else ".")
                    + (" …" if len(open_cases) > 60 else "")
                )
            ],
        ),
    ]
    target = (out_dir or reports_dir() / "releases") / f"{version}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        render_markdown(f"Release {version} — eval report", sections), encoding="utf-8"
    )
    return target
