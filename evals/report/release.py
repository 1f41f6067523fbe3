"""`converse report RUN_ID --release VERSION`: the committed release report."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from evals.prompt_refs import prompt_refs
from evals.report import tables
from evals.report.build import LABEL_NOTE, load_run
from evals.report.document import Section, Table, Text, render_markdown
from evals.runner.results import RunError, reports_dir


def templates_used(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """family, version, sha256 and the number of rows of each template the rows name."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        for ref in prompt_refs(row):
            counts[(ref["family"], ref["version"], ref["sha256"])] += 1
    found = [
        {"family": f, "version": v, "sha256": h, "rows": n}
        for (f, v, h), n in sorted(counts.items())
    ]
    return pd.DataFrame(found, columns=["family", "version", "sha256", "rows"])


def write_release(
    run_id: str, version: str, *, root: Path | None = None, out_dir: Path | None = None
) -> Path:
    """Write reports/releases/<VERSION>.md from a run whose every failing case is reviewed.

    A release report is what a team signs off on, so a failure nobody has looked at refuses it
    (a RunError naming how many, and the command that records a verdict).
    """
    run, meta, df, groups = load_run(run_id, root)
    failed = df[df["status"] == "fail"]
    unreviewed = failed[failed["review"] == ""]
    open_cases = sorted(
        {(r.suite, r.case_id, r.provider) for r in unreviewed.itertuples(index=False)}
    )
    if open_cases:
        suite, case, provider = open_cases[0]
        raise RunError(
            f"{len(open_cases)} failing case(s) of run {run_id} have no reviewer verdict "
            f"(first: {suite}/{case} on {provider})",
            f"record each with `converse review {run_id} SUITE/CASE --pass|--fail --note TEXT "
            "[--provider P]`, then build the release report again",
        )
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    failing = [f for g in groups for f in g.gate_failures]
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
        Section(
            "Templates",
            [
                Text(
                    "Every prompt template the run's rows were produced with, by the sha256 of "
                    "its source: a template changed or added after the commit shows here."
                ),
                Table(templates_used(run.latest_rows())),
            ],
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
            [Text("0 failing case(s) have no reviewer verdict: a release report is refused "
                  "while any has none.")],
        ),
    ]  # fmt: skip
    target = (out_dir or reports_dir() / "releases") / f"{version}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        render_markdown(f"Release {version} — eval report", sections), encoding="utf-8"
    )
    return target
