"""The report's robustness section (and `converse eval`'s table of it): per suite x provider x
prompt, accuracy under each perturbation beside the run as written, the invariance rate, and
the cases whose verdict a perturbation changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from evals.perturb import perturbation_of
from evals.report.document import Block, Details, Section, Table, Text
from evals.report.frame import describe_input
from evals.runner.summary import GroupResult

SAID_LIMIT = 300
NOTE = (
    "Each perturbation rewrites every operator message of a case (docs/evals.md, "
    '"Robustness") without touching the words its expectations look for, and the case is '
    "scored against its own expectations. Rows exist only for the cases a perturbation "
    "changed; an unchanged case keeps its verdict as written, so accuracy covers the whole "
    "suite. Invariance is the share of changed cases, scored both ways, whose verdict did not "
    "change; broke: passed as written, failed perturbed; fixed: the reverse. Intervals are 95% "
    "Wilson score intervals."
)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _ci(pair: Sequence[float], n: int) -> str:
    return "—" if n == 0 else f"{pair[0]:.1%}–{pair[1]:.1%}"


def _change(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:+.1f} pts"


def _as_written(g: GroupResult) -> dict[str, Any]:
    """The line of the run as written; its comparison cells stay empty."""
    return {
        "perturbation": "(as written)",
        "changed": "—",
        "accuracy": _pct(g.accuracy),
        "95% CI": _ci(g.ci95, g.scored),
        **dict.fromkeys(("vs as written", "invariance", "invariance 95% CI", "broke", "fixed"), ""),
        "errors": g.errors,
    }


def _figures(g: GroupResult, f: Mapping[str, Any]) -> dict[str, Any]:
    scored = f["n"] - f["errors"]
    return {
        "perturbation": f["name"],
        "changed": f"{f['changed']} of {f['n']}",
        # from the counts, as the run's own line is, so equal counts never show unequal
        "accuracy": _pct(f["passed"] / scored if scored else None),
        "95% CI": _ci(f["ci95"], scored),
        "vs as written": _change(f["accuracy_change"]),
        "invariance": _pct(f["invariant"] / f["paired"] if f["paired"] else None),
        "invariance 95% CI": _ci(f["invariance_ci95"], f["paired"]),
        "broke": f["broke"],
        "fixed": f["fixed"],
        "errors": f["errors"],
    }


def robustness_frame(groups: Sequence[GroupResult]) -> pd.DataFrame:
    """One line per group and perturbation (empty when the run perturbed nothing)."""
    records = []
    for g in groups:
        if g.robustness:
            records.append({"suite": g.suite, "provider": g.provider, **_as_written(g)})
        for f in g.robustness or []:
            records.append({"suite": g.suite, "provider": g.provider, **_figures(g, f)})
    return pd.DataFrame.from_records(records)


def _said(row: Mapping[str, Any]) -> str:
    """What the rewritten case said: its message, or a conversation's messages in turn."""
    turns = (row.get("got") or {}).get("turns")
    said = [t["message"] for t in turns or [] if isinstance(t, dict) and t.get("message")]
    if not said:
        return describe_input(row.get("input") or {})
    text = " / ".join(str(m) for m in said)
    return text if len(text) <= SAID_LIMIT else text[: SAID_LIMIT - 1] + "…"


def _flips(g: GroupResult, rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The cases of the group whose verdict a perturbation changed."""
    mine = [r for r in rows if (r["suite"], r["provider"], r["variant"]) == (
        g.suite, g.provider, g.variant)]  # fmt: skip
    written = {(r["case_id"], r["epoch"]): r for r in mine if not perturbation_of(r)}
    records = []
    for row in mine:
        base = written.get((row["case_id"], row["epoch"]))
        if not perturbation_of(row) or base is None or base["status"] == row["status"]:
            continue
        records.append(
            {
                "case": row["case_id"],
                "perturbation": perturbation_of(row),
                "input as perturbed": _said(row),
                "as written": base["status"],
                "perturbed": row["status"],
                "why": row.get("why") or "",
            }
        )
    return pd.DataFrame.from_records(records)


def robustness_section(
    groups: Sequence[GroupResult], rows: Sequence[Mapping[str, Any]]
) -> Section | None:
    """The section, or None when the run perturbed nothing."""
    chosen = [g for g in groups if g.robustness]
    if not chosen:
        return None
    blocks: list[Block] = [Text(NOTE)]
    for g in chosen:
        title = f"**{g.suite}** — {g.label}" + (
            f" — prompt {g.variant}" if g.variant != "active" else ""
        )
        figures = [_as_written(g), *(_figures(g, f) for f in g.robustness or [])]
        blocks += [Text(title), Table(pd.DataFrame.from_records(figures))]
        flips = _flips(g, rows)
        if not flips.empty:
            blocks.append(Details(f"{len(flips)} verdict(s) changed by a perturbation", [
                Table(flips)]))  # fmt: skip
    return Section("Robustness", blocks)
