"""Rows as a pandas DataFrame, with the columns every table groups and shows."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from math import nan as NAN
from typing import Any

import pandas as pd

from evals.lines import short
from evals.perturb import split_rows
from evals.report.reviews import Review
from evals.targets import spec_if_known

GROUP = ["suite", "provider_label", "variant"]
ERROR_LABEL = "(error)"


def _label(target: str, side: Mapping[str, Any] | None) -> str | None:
    """The class a row falls into for a confusion matrix (None when the target has none)."""
    spec = spec_if_known(target)
    field = spec.confusion if spec is not None else None
    if not side or field is None:
        return None
    value = side.get(field)
    return str(value) if value is not None else None


def describe_input(brief: Mapping[str, Any]) -> str:
    """The case's input, in a line."""
    parts = []
    if "message" in brief:
        parts.append(short(brief["message"], 120))
    if brief.get("project"):
        parts.append(f"[project: {brief['project']}]")
    if brief.get("turns"):
        parts.append(f"[{brief['turns']} turns]")
    if brief.get("projects"):
        parts.append(f"[projects: {', '.join(brief['projects'])}]")
    if brief.get("history_turns"):
        parts.append(f"[after {brief['history_turns']} turns]")
    if "memories" in brief:
        parts.append(f"[{brief['memories']} memories]")
    return " ".join(parts)


def describe_expected(target: str, expected: Any) -> str:
    """Expected, in a line (the target's spec says how; evals/lines.py)."""
    spec = spec_if_known(target)
    return spec.expected_line(expected) if spec is not None else short(expected)


def describe_got(target: str, got: Mapping[str, Any]) -> str:
    """What came back, in a line (the target's spec says how; evals/lines.py)."""
    spec = spec_if_known(target)
    return spec.got_line(got) if spec is not None else short(got)


def _sample(value: Any) -> str:
    """'sample 40 of 218, seed 3' for a row of a sampled suite (`--sample`), else ''."""
    if not isinstance(value, dict):
        return ""
    return f"sample {value.get('n')} of {value.get('of')}, seed {value.get('seed')}"


def earlier_verdicts(history: Sequence[Review]) -> str:
    """The verdicts before the newest, newest first, in a line ("" when there is one)."""
    return "; ".join(
        f"{r.verdict} by {r.reviewer} at {r.at}: {r.note}" for r in reversed(history[:-1])
    )


def reading_signature(scores: Any) -> str:
    """The per-message field verdicts of a row as one comparable text ("" without any)."""
    if not isinstance(scores, list) or not scores:
        return ""
    return json.dumps(
        [[s.get("turn"), s.get("fields")] for s in scores if isinstance(s, dict)], sort_keys=True
    )


def reading_why(scores: Any) -> str:
    """What the reading got wrong, message by message, in a line ("" when nothing)."""
    if not isinstance(scores, list):
        return ""
    return "; ".join(
        f"turn {s.get('turn')}: " + ", ".join(str(w) for w in s["why"])
        for s in scores
        if isinstance(s, dict) and s.get("why")
    )


def frame(
    rows: list[dict[str, Any]],
    reviews: Mapping[tuple[str, str, str], Sequence[Review]] | None = None,
) -> pd.DataFrame:
    """One line per row with derived columns: label, expected/got text and reviews.

    `reviews` holds every verdict per (suite, case, provider), oldest first; the newest counts.
    Only the cases as written are lines: perturbed rows (a run with `--perturb`) are figures of
    the Robustness section, not cases of their own in the tables, comparisons and reviews.
    """
    records = []
    for row in split_rows(rows)[0]:
        target = row["target"]
        tokens = row.get("tokens") or {}
        history = (reviews or {}).get((row["suite"], row["case_id"], row["provider"])) or []
        review = history[-1] if history else None
        got_label = ERROR_LABEL if row["status"] == "error" else _label(target, row.get("got"))
        records.append(
            {
                "suite": row["suite"],
                "target": target,
                "case_id": row["case_id"],
                "tags": list(row.get("tags") or []),
                "provider": row["provider"],
                "provider_label": row.get("provider_label") or row["provider"],
                "model": row.get("model") or "",
                "variant": row.get("variant", "active"),
                "prompt": ", ".join(
                    f"{k}={v}" for k, v in sorted((row.get("prompt") or {}).items())
                )
                or "-",
                "epoch": int(row["epoch"]),
                "status": row["status"],
                "passed": row["status"] == "pass",
                "errored": row["status"] == "error",
                "expected_label": _label(target, row.get("expected")),
                "got_label": got_label,
                "input_text": describe_input(row.get("input") or {}),
                "expected_text": describe_expected(target, row.get("expected") or {}),
                "got_text": describe_got(target, row.get("got") or {}),
                "answer": json.dumps(row.get("got"), sort_keys=True, ensure_ascii=False),
                "why": row.get("why") or "",
                "checks": list(row.get("checks") or []),
                "error": row.get("error") or "",
                "latency_ms": float(row.get("latency_ms") or 0.0),
                "input_tokens": int(tokens.get("input", 0)),
                "output_tokens": int(tokens.get("output", 0)),
                "cache_read_tokens": int(tokens.get("cache_read", 0)),
                "cache_write_tokens": int(tokens.get("cache_creation", 0)),
                # NaN when a model has no price (synthetic answers, local providers)
                "cost_usd": float(row["cost_usd"]) if row.get("cost_usd") is not None else NAN,
                "truncated": int(row.get("truncated") or 0),
                "cached": bool(row.get("cached")),
                "cassette": row.get("cassette") or "",
                "sample": _sample(row.get("sample")),
                "review": review.verdict if review else "",
                "review_note": review.note if review else "",
                "reviewer": review.reviewer if review else "",
                "reviewed_at": review.at if review else "",
                "review_history": earlier_verdicts(history),
                "failed_by": row.get("failed_by") or "",
                "reading_sig": reading_signature(row.get("reading_scores")),
                "reading_why": reading_why(row.get("reading_scores")),
                "reading_scores": row.get("reading_scores") or [],
            }
        )
    columns = [
        "suite", "target", "case_id", "tags", "provider", "provider_label", "model", "variant",
        "prompt", "epoch", "status", "passed", "errored", "expected_label", "got_label",
        "input_text", "expected_text", "got_text", "answer", "why", "checks", "error", "latency_ms",
        "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_usd",
        "truncated", "cached", "cassette", "sample", "review", "review_note", "reviewer",
        "reviewed_at", "review_history", "failed_by", "reading_sig", "reading_why",
        "reading_scores",
    ]  # fmt: skip
    return pd.DataFrame.from_records(records, columns=columns)
