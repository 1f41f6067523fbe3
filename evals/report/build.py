"""`converse report RUN_ID`: report.md and report.html from a run's rows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from evals.report import tables
from evals.report.compare import compare_sections
from evals.report.document import Image, Section, Table, Text, render_html, render_markdown
from evals.report.frame import frame
from evals.report.heatmap import confusion, save_heatmap
from evals.report.reviews import load_reviews
from evals.report.transcript import conversation_section
from evals.runner.results import RunDir, RunError
from evals.runner.run import gates_of
from evals.runner.summary import GroupResult, summarize

LABEL_NOTE = (
    "Provider labels say what produced each number: `scripted` answers come from a fixture "
    "(not a model), `local` is the embedded offline baseline (a small embedding model, not an "
    "LLM), `pipeline` rows exercise deterministic code with no model at all, and Claude numbers "
    "replayed from synthetic cassettes are marked as such."
)


@dataclass(frozen=True)
class BuiltReport:
    """Where the report went, and what it was built from."""

    markdown: Path
    html: Path
    groups: list[GroupResult]
    frame: pd.DataFrame


def _slug(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-").lower()[:80]


def _header(run: RunDir, meta: dict[str, Any], df: pd.DataFrame) -> Section:
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    config = meta.get("config", {})
    scorers = sorted({f"{s}" for s in df["target"].unique()}) if not df.empty else []
    lines = [
        f"Run `{run.run_id}`, started {meta.get('created_at', '?')}, finished "
        f"{meta.get('finished_at', '(not finished)')}; commit `{commit}`.",
        f"Suites: {', '.join(s['name'] for s in meta.get('suite_info', []))}. "
        f"Providers: {', '.join(sorted(df['provider_label'].unique())) if not df.empty else '—'}. "
        f"Epochs: {config.get('epochs', 1)}. Targets: {', '.join(scorers)}.",
        LABEL_NOTE,
        "Accuracy is passed / scored; errors (a provider that failed, timed out or answered "
        "something unusable) are not wrong answers and are counted apart. Intervals are 95% "
        "Wilson score intervals.",
    ]
    return Section("Run", [Text(line) for line in lines])


def _confusions(run: RunDir, df: pd.DataFrame) -> Section:
    section = Section("Confusion matrices")
    with_labels = df[df["expected_label"].notna()]
    if with_labels.empty:
        section.blocks.append(Text("No suite in this run has classes to confuse."))
        return section
    for (suite, label, prompt), group in with_labels.groupby(tables.GROUP, sort=True):
        matrix = confusion(group["expected_label"], group["got_label"])
        title = f"{suite} — {label} — prompt {prompt}"
        path = save_heatmap(
            matrix, run.path / f"confusion-{_slug(suite, label, prompt)}.png", title
        )
        shown = matrix.reset_index().rename(columns={"expected": "expected \\ got"})
        section.blocks += [
            Text(f"**{title}**"),
            Image(path, f"confusion matrix: {title}"),
            Table(shown),
        ]
    return section


def build_sections(
    run: RunDir, meta: dict[str, Any], df: pd.DataFrame, groups: list[GroupResult]
) -> list[Section]:
    """Every section of a run report."""
    failing = [f for g in groups for f in g.gate_failures]
    gate_text = "Every gate passed." if not failing else "Gates failed: " + "; ".join(failing) + "."
    sections = [
        _header(run, meta, df),
        Section("Summary", [Text(gate_text), Table(tables.summary(groups))]),
        Section("Accuracy per tag", [Table(tables.per_tag(df))]),
        _confusions(run, df),
    ]
    agreement = tables.agreement(df)
    if not agreement.empty:
        sections.append(Section("Agreement across epochs", [Table(agreement)]))
    sections += [
        Section("Latency and tokens", [
            Text("Latency counts answers computed in this run; cached answers are excluded."),
            Table(tables.latency_tokens(df)),
        ]),
        Section("Reviews", [Table(tables.reviews(df))]),
        Section("Failed cases", [Table(tables.failures(df))]),
    ]  # fmt: skip
    conversations = conversation_section(df)
    if conversations is not None:
        sections[-1].blocks.insert(0, Text("Failed conversations are shown turn by turn below."))
        sections.append(conversations)
    sections.append(Section("Errors", [Table(tables.errors(df))]))
    return sections


def load_run(
    run_id: str, root: Path | None = None
) -> tuple[RunDir, dict[str, Any], pd.DataFrame, list[GroupResult]]:
    """A run's folder, run.json, rows as a frame, and its groups with gates."""
    run = RunDir.existing(run_id, root)
    meta = run.read_meta()
    rows = run.latest_rows()
    if not rows:
        raise RunError(f"run {run_id} has no results yet", f"run `converse eval --resume {run_id}`")
    groups = summarize(rows, gates_of(meta))
    return run, meta, frame(rows, load_reviews(run)), groups


def build_report(
    run_id: str, *, compare: str | None = None, root: Path | None = None
) -> BuiltReport:
    """Write report.md and report.html into the run's folder."""
    run, meta, df, groups = load_run(run_id, root)
    sections = build_sections(run, meta, df, groups)
    if compare:
        base_run = RunDir.existing(compare, root)
        base_rows = base_run.latest_rows()
        sections[2:2] = compare_sections(df, frame(base_rows, load_reviews(base_run)), compare)
    title = f"converse eval report — run {run_id}"
    markdown = run.path / "report.md"
    page = run.path / "report.html"
    markdown.write_text(render_markdown(title, sections), encoding="utf-8")
    page.write_text(render_html(title, sections), encoding="utf-8")
    return BuiltReport(markdown, page, groups, df)
