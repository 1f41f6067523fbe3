"""What each page shows, as plain values for the templates (tables as header + rows of text)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from evals.report import tables
from evals.report.compare import compare
from evals.report.frame import reading_why
from evals.report.gates import gate_verdicts
from evals.report.grouped import worst_first
from evals.report.heatmap import confusion
from evals.report.reading import causes_frame, not_runnable_frame, reading_frame
from evals.report.transcript import transcript_table
from evals.targets import is_transcript
from evals.view.prompt_diff import prompt_changes
from evals.view.run_data import LoadedRun
from evals.view.sent import sent_prompt
from evals.view.verdicts import kind_of


@dataclass(frozen=True)
class Grid:
    """A table as text: a caption, column names and rows."""

    caption: str
    columns: list[str]
    rows: list[list[str]]


def grid(df: pd.DataFrame, caption: str = "") -> Grid:
    """A DataFrame as a Grid (every cell as text)."""
    if df.empty:
        return Grid(caption, [], [])
    return Grid(
        caption,
        [str(c) for c in df.columns],
        [["" if v is None else str(v) for v in row] for row in df.itertuples(index=False)],
    )


def commit_of(meta: dict[str, Any]) -> tuple[str, bool | None]:
    """The run's commit (12 hex digits) and its dirty flag."""
    raw = meta.get("git")
    git: dict[str, Any] = raw if isinstance(raw, dict) else {}
    dirty = git.get("dirty")
    return str(git.get("commit") or "unknown")[:12], dirty if isinstance(dirty, bool) else None


def untracked_prompts(meta: dict[str, Any]) -> list[str]:
    """Prompt files git did not track when the run started (they made it dirty)."""
    raw = meta.get("git")
    found = raw.get("untracked_prompts") if isinstance(raw, dict) else None
    return [str(p) for p in found] if isinstance(found, list) else []


def _per_tag(df: pd.DataFrame) -> list[Grid]:
    frame = tables.per_tag(df)
    if frame.empty:
        return []
    key = ["Suite", "Provider", "Prompt"]
    return [
        grid(worst_first(group.drop(columns=key)), f"{suite} — {provider} — prompt {prompt}")
        for (suite, provider, prompt), group in frame.groupby(key, sort=True)
    ]


def _confusions(df: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    labelled = df[df["expected_label"].notna()]
    for (suite, label, prompt), group in labelled.groupby(tables.GROUP, sort=True):
        matrix = confusion(group["expected_label"], group["got_label"])
        values = matrix.to_numpy()
        peak = int(values.max()) if values.size else 0
        out.append(
            {
                "title": f"{suite} — {label} — prompt {prompt}",
                "labels": [str(c) for c in matrix.columns],
                "rows": [
                    (str(name), [(int(v), (v / peak) if peak else 0.0) for v in counts])
                    for name, counts in zip(matrix.index, values, strict=True)
                ],
            }
        )
    return out


def failure_list(found: LoadedRun) -> list[dict[str, Any]]:
    """One entry per failing case: what was expected and got, and its reviewer verdict."""
    df = found.df
    failed = df[df["status"] == "fail"].drop_duplicates(subset=["suite", "case_id", "provider"])
    out = []
    for row in failed.sort_values(["suite", "case_id", "provider"], kind="stable").itertuples():
        out.append(
            {
                "suite": row.suite,
                "case": row.case_id,
                "provider": row.provider,
                "label": row.provider_label,
                "target": row.target,
                "input": row.input_text,
                "expected": row.expected_text,
                "got": row.got_text,
                "why": row.why,
                # the reading or the decision (empty when the run cannot tell)
                "failed_on": tables.failed_on(pd.Series(row._asdict())) if row.failed_by else "",
                "review": row.review,
                "kind": kind_of(row.review_note),
                "note": row.review_note,
                "reviewer": row.reviewer,
            }
        )
    return out


def run_page(found: LoadedRun) -> dict[str, Any]:
    """Gate cards, failures first, the summary, per-tag tables, confusions and errors (built
    once per state of the run's files)."""
    if "run" not in found.memo:
        found.memo["run"] = _run_page(found)
    context: dict[str, Any] = found.memo["run"]
    return context


def _run_page(found: LoadedRun) -> dict[str, Any]:
    df = found.df
    if "run" not in found.static:  # the parts that do not read the reviews
        commit, dirty = commit_of(found.meta)
        found.static["run"] = {
            "run_id": found.run.run_id,
            "meta": found.meta,
            "commit": commit,
            "dirty": dirty,
            "untracked_prompts": untracked_prompts(found.meta),
            "providers": sorted(df["provider_label"].unique()),
            "gates": gate_verdicts(found.groups),
            "summary": grid(tables.summary(found.groups)),
            "reading": grid(reading_frame(found.groups)),
            "causes": grid(causes_frame(found.groups)),
            "not_runnable": grid(not_runnable_frame(found.meta)),
            "reading_mode": (found.meta.get("config") or {}).get("reading") or "provider",
            "per_tag": _per_tag(df),
            "confusions": _confusions(df),
            "errors": grid(tables.errors(df)),
            "rows": len(df),
        }
    failures = failure_list(found)
    return {
        **found.static["run"],
        "failures": failures,
        "reviewed": sum(1 for f in failures if f["review"]),
    }


def case_page(found: LoadedRun, key: tuple[str, str, str]) -> dict[str, Any]:
    """Every stored row of one case: a transcript for a conversation, else prompt and answer."""
    rows = found.case_rows(key)
    shown = []
    for row in rows:
        got = row.get("got") or {}
        entry: dict[str, Any] = {
            "epoch": row.get("epoch"),
            "variant": row.get("variant"),
            "status": row["status"],
            "why": row.get("why") or "",
            # the reading (with what it got wrong) or the decision
            "failed_on": tables.failed_on_text(
                row.get("failed_by") or "", reading_why(row.get("reading_scores"))
            )
            if row.get("failed_by")
            else "",
            "error": row.get("error") or "",
            "prompts": [p for p in row.get("prompts") or [] if isinstance(p, dict)],
            "input": json.dumps(row.get("input") or {}, indent=2, ensure_ascii=False),
            "expected": json.dumps(row.get("expected"), indent=2, ensure_ascii=False),
            "got": json.dumps(got, indent=2, ensure_ascii=False),
            "checks": [c for c in row.get("checks") or [] if isinstance(c, dict)],
            "model": row.get("model") or "",
            "label": row.get("provider_label") or row["provider"],
            "transcript": None,
            "sent": sent_prompt(row) if not is_transcript(row["target"]) else None,
        }
        if is_transcript(row["target"]) and isinstance(got, dict) and got.get("turns"):
            reading = row.get("reading_scores")
            entry["transcript"] = grid(transcript_table(got, entry["checks"], reading))
            entry["prompt_texts"] = [
                (t.get("turn"), t["prompt"])
                for t in got.get("turns") or []
                if isinstance(t, dict) and isinstance(t.get("prompt"), str)
            ]
        shown.append(entry)
    df = found.df
    hit = df[(df["suite"] == key[0]) & (df["case_id"] == key[1]) & (df["provider"] == key[2])]
    first = hit.iloc[0] if len(hit) else None
    return {
        "run_id": found.run.run_id,
        "key": key,
        "rows": shown,
        "target": rows[0]["target"] if rows else "",
        "review": None if first is None or not first["review"] else first,
        "history": "" if first is None else first["review_history"],
        "tags": [] if first is None else first["tags"],
    }


def compare_page(found: LoadedRun, base: LoadedRun) -> dict[str, Any]:
    """This run against a baseline: per suite with McNemar, tags, regressions, fixes, prompts."""
    result = compare(found.df, base.df, base.run.run_id)
    return {
        "run_id": found.run.run_id,
        "base_id": base.run.run_id,
        "changes": grid(result.changes),
        "per_tag": grid(result.per_tag),
        "regressions": grid(result.regressions),
        "fixes": grid(result.fixes),
        "attribution": grid(result.attribution),
        "prompts": prompt_changes(
            base.rows, found.rows, commit_of(base.meta)[0], commit_of(found.meta)[0]
        ),
    }
