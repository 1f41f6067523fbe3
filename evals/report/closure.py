"""The closure suites' figures side by side: the deterministic baseline (`pipeline`) beside
every provider whose model answered the compression stages, so the model's contribution is
visible. Used by the report and by `converse eval`'s printed summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from evals.report.document import Block, Section, Table, Text
from evals.runner.providers import DETERMINISTIC
from evals.runner.summary import GroupResult
from evals.targets import in_section
from pipeline.conversation_models import ENTITY_KINDS

# The section's title; a target's spec names it to have its groups shown here.
TITLE = "Conversation closure"

NOTE = (
    "Entity counts are pooled over the cases: precision is extracted entities containing an "
    "expected phrase of their kind / extracted, recall is expected items found / expected. F1 "
    "intervals are 95% percentile bootstrap intervals over cases (1,000 resamples, fixed seed); "
    "rate intervals are 95% Wilson intervals. Resolution: open items resolved that the case "
    "settles (precision) and settled items resolved (recall); a kept-open item resolved is "
    "wrong. `pipeline` is the deterministic fallback of every stage, no model."
)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _interval(ci: Sequence[float] | None) -> str:
    return "" if not ci else f" ({ci[0]:.1%}–{ci[1]:.1%})"


def _rate(rate: dict[str, Any]) -> str:
    return f"{_pct(rate['rate'])} ({rate['hits']}/{rate['n']}){_interval(rate['ci95'])}"


def metric_rows(m: dict[str, Any]) -> list[tuple[str, str]]:
    """(figure, value) for one group's metrics, in report order."""
    rows: list[tuple[str, str]] = []
    for kind in ENTITY_KINDS:
        e = m["entities"][kind]
        rows.append(
            (
                f"{kind} F1 (P / R)",
                f"{_pct(e['f1'])}{_interval(e['f1_ci95'])} "
                f"({_pct(e['precision'])} / {_pct(e['recall'])})",
            )
        )
    res = m["resolution"]
    rows += [
        ("absent phrases extracted", f"{m['absent_violations']} in {m['cases_with_absent']} cases"),
        ("routing accuracy", _rate(m["routing"])),
        (
            "resolution P / R",
            f"{_pct(res['precision'])} / {_pct(res['recall'])} "
            f"({res['correct']} right, {res['wrong']} wrong, {res['missed']} missed; "
            f"{res['kept_open_resolved']} kept-open resolved)",
        ),
        ("resolution exact (cases)", _rate(res["exact"])),
        ("narrative format (2–4 sentences)", _rate(m["narrative_format"])),
        ("narrative points covered", _rate(m["narrative_points"])),
    ]
    return rows


def _ordered(groups: list[GroupResult]) -> list[GroupResult]:
    """The baseline first, then the models."""
    return sorted(groups, key=lambda g: (g.provider != DETERMINISTIC, g.label, g.variant))


def closure_frames(groups: list[GroupResult]) -> list[tuple[str, pd.DataFrame]]:
    """Per closure suite: a frame whose columns are the providers, rows the figures."""
    suites: dict[str, list[GroupResult]] = {}
    for g in groups:
        if g.metrics is not None and in_section(g.target, TITLE):
            suites.setdefault(g.suite, []).append(g)
    out: list[tuple[str, pd.DataFrame]] = []
    for suite, members in suites.items():
        ordered = _ordered(members)
        columns: dict[str, list[str]] = {}
        figures: list[str] = []
        for g in ordered:
            assert g.metrics is not None
            rows = metric_rows(g.metrics)
            figures = [name for name, _ in rows]
            name = g.label + (f" [{g.variant}]" if g.variant != "active" else "")
            columns[name] = [value for _, value in rows]
        out.append((suite, pd.DataFrame({"figure": figures, **columns})))
    return out


def closure_section(groups: list[GroupResult]) -> Section | None:
    """The report's section, or None when the run has no closure suite."""
    frames = closure_frames(groups)
    if not frames:
        return None
    blocks: list[Block] = [Text(NOTE)]
    for suite, df in frames:
        blocks += [Text(f"**{suite}**"), Table(df)]
    return Section(TITLE, blocks)
