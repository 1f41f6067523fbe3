"""Why the cases that moved between two runs moved: the reading or the decision.

A case moved when its verdict changed (a regression or a fix of the comparison). It moved
because the reading changed when its per-field reading verdicts against the gold readings
(the rows' `reading_scores`) differ between the runs; because the decision changed when they
are the same and the outcome is not. A case with no gold reading in either run cannot be told.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from evals.report.document import Section, Table, Text

READING, DECISION, UNKNOWN = "reading changed", "decision changed", "no gold reading"
_KEY = ["suite", "provider_label", "case_id"]


def _signatures(df: pd.DataFrame) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(suite, provider label, case) -> (the reading verdicts of its epochs, what the reading
    got wrong), from report.frame.frame's columns."""
    if df.empty:
        return {}
    scored = df[~df["errored"]]
    out: dict[tuple[str, str, str], tuple[str, str]] = {}
    for key, group in scored.groupby(_KEY, sort=False):
        signatures = sorted({str(s) for s in group["reading_sig"]})
        why = "; ".join(sorted({str(w) for w in group["reading_why"] if w}))
        out[(str(key[0]), str(key[1]), str(key[2]))] = ("|".join(s for s in signatures), why)
    return out


def attribute_moves(
    current: pd.DataFrame,
    baseline: pd.DataFrame,
    regressions: Sequence[Mapping[str, Any]],
    fixes: Sequence[Mapping[str, Any]],
) -> pd.DataFrame:
    """Each regression and fix with why it moved (the comparison's records name each case by
    suite, provider label and case id)."""
    now, before = _signatures(current), _signatures(baseline)
    records = []
    for moved, cases in (("regression", regressions), ("fix", fixes)):
        for case in cases:
            key = (str(case["Suite"]), str(case["Provider"]), str(case["Case"]))
            sig_now, why_now = now.get(key, ("", ""))
            sig_base, why_base = before.get(key, ("", ""))
            if not sig_now and not sig_base:
                cause = UNKNOWN
            else:
                cause = READING if sig_now != sig_base else DECISION
            records.append(
                {
                    "Suite": key[0],
                    "Provider": key[1],
                    "Case": key[2],
                    "Moved": moved,
                    "Cause": cause,
                    "Reading mistakes now": why_now or "—",
                    "Reading mistakes in the baseline": why_base or "—",
                }
            )
    return pd.DataFrame.from_records(records)


def attribution_json(frame: pd.DataFrame) -> dict[str, Any]:
    """Counts per cause and each moved case, for `converse report --compare --json`."""
    counts = {cause: 0 for cause in (READING, DECISION, UNKNOWN)}
    cases = []
    for row in frame.to_dict("records") if not frame.empty else []:
        counts[row["Cause"]] += 1
        cases.append(
            {"suite": row["Suite"], "case_id": row["Case"], "moved": row["Moved"],
             "cause": row["Cause"]}
        )  # fmt: skip
    return {
        "reading_changed": counts[READING],
        "decision_changed": counts[DECISION],
        "no_gold_reading": counts[UNKNOWN],
        "cases": cases,
    }


def attribution_section(frame: pd.DataFrame) -> Section:
    """The moved cases by cause, as a report section."""
    if frame.empty:
        return Section("Why cases moved", [Text("No shared case changed verdict.")], 3)
    counts = frame["Cause"].value_counts()
    intro = Text(
        f"Of {len(frame)} case(s) that changed verdict: {int(counts.get(READING, 0))} because "
        f"the reading changed (its per-field verdicts against the gold readings differ between "
        f"the runs), {int(counts.get(DECISION, 0))} because the decision changed (the same "
        f"reading verdicts, a different outcome), {int(counts.get(UNKNOWN, 0))} without a gold "
        "reading in either run (not attributed)."
    )
    return Section("Why cases moved", [intro, Table(frame, short=("Provider",))], 3)
