"""The report's Calibration section: expected calibration error per suite x provider x prompt
(and over every suite), a reliability diagram per group and its table folded beneath."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from evals.report.calibration import (
    ALL_SUITES,
    BAD_CONFIDENCE,
    NO_CONFIDENCE,
    NO_VERDICT,
    Calibration,
    calibrate,
)
from evals.report.document import Details, Image, Section, Table, Text
from evals.report.reliability_plot import save_reliability
from evals.report.tables import interval, pct

TITLE = "Calibration"
_SHORT = ("Provider", "Prompt variant")
EXPLAIN = (
    "How well the classifier's confidence predicts that its reading is right. Each message it "
    "read is one point: its confidence, and whether the intents were right (the reading's "
    "`intent` verdict against the gold reading where the message has one, else a classify "
    "case's own intent check). Messages with no confidence, a confidence outside [0, 1] or no "
    "verdict (a conversation turn without a gold reading) are skipped and counted; errors, "
    "gold replays and perturbed messages are left out. Confidences fall into {bins} "
    "equal-width bins; **ECE** (expected calibration error) is the sum over the non-empty "
    "bins of |accuracy − mean confidence| × bin messages / messages: 0 when the confidence "
    "matches the accuracy in every bin. In each diagram the bars are the bins' accuracy, the "
    "dots sit at their mean confidence with a 95% Wilson interval, the dashed diagonal is "
    "perfect calibration, and the grey bars beneath count the messages (docs/evals.md, "
    '"Calibration").'
)


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _shown(groups: Sequence[Calibration]) -> list[Calibration]:
    """Every suite's group, and a provider's ALL_SUITES group when it read several suites."""
    suites = Counter((g.provider, g.variant) for g in groups if g.suite != ALL_SUITES)
    return [g for g in groups if g.suite != ALL_SUITES or suites[(g.provider, g.variant)] > 1]


def calibration_frame(groups: Sequence[Calibration]) -> pd.DataFrame:
    """Per group: messages, ECE, mean confidence, accuracy and the messages skipped."""
    records = []
    for g in groups:
        record: dict[str, Any] = {
            "Suite": g.suite,
            "Provider": g.provider,
            "Prompt variant": g.variant,
            "Messages": g.n,
            "ECE": _number(g.ece),
            "Mean confidence": _number(g.mean_confidence),
            "Accuracy": pct(g.accuracy),
            "Skipped: no confidence": g.skipped.get(NO_CONFIDENCE, 0),
            "Skipped: no verdict": g.skipped.get(NO_VERDICT, 0),
        }
        if any(x.skipped.get(BAD_CONFIDENCE) for x in groups):
            record["Skipped: confidence not in [0, 1]"] = g.skipped.get(BAD_CONFIDENCE, 0)
        records.append(record)
    return pd.DataFrame.from_records(records)


def bins_frame(group: Calibration) -> pd.DataFrame:
    """The group's reliability table: one line per non-empty bin."""
    return pd.DataFrame.from_records(
        [
            {
                "Confidence": f"{b.lower:.1f}–{b.upper:.1f}",
                "Messages": b.n,
                "Right": b.correct,
                "Mean confidence": f"{b.confidence:.3f}",
                "Accuracy": pct(b.accuracy),
                "95% CI": interval(b.correct, b.n),
                "Accuracy − confidence": f"{b.accuracy - b.confidence:+.3f}",
            }
            for b in group.table
        ]
    )


def plot_name(group: Calibration) -> str:
    """The diagram's file name in the run's folder."""
    parts = ("all-suites" if group.suite == ALL_SUITES else group.suite, group.provider)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", "-".join((*parts, group.variant))).strip("-").lower()
    return f"reliability-{slug[:80]}.svg"


def calibration_section(
    folder: Path, rows: Iterable[Mapping[str, Any]], bins: int | None = None
) -> Section | None:
    """The section, its diagrams written into the run's folder; None when no message of the
    run had a confidence and a verdict."""
    groups = _shown(calibrate(rows) if bins is None else calibrate(rows, bins))
    if not any(g.n for g in groups):
        return None
    blocks: list[Any] = [
        Text(EXPLAIN.format(bins=groups[0].bins)),
        Table(calibration_frame(groups), caption="Expected calibration error", short=_SHORT),
    ]
    for g in groups:
        if not g.n:
            continue
        title = f"{g.suite} — {g.provider} — {g.variant} prompts: ECE {_number(g.ece)}"
        path = save_reliability(g, folder / plot_name(g))
        blocks += [
            Text(f"**{title}** ({g.n} messages)"),
            Image(path, f"reliability diagram: {title}"),
            Details("The reliability table", [Table(bins_frame(g))]),
        ]
    return Section(TITLE, blocks)
