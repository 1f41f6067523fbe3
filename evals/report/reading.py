"""The report's reading figures: accuracy per reading field against the gold readings (with
95% Wilson intervals), the failed cases by cause (the reading or the decision), and the cases a
gold run could not replay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from evals.report.document import Section, Table, Text
from evals.report.tables import interval, pct
from evals.runner.summary import GroupResult

TITLE = "Reading"
_SHORT = ("Provider", "Prompt")


def _prompt(group: GroupResult) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(group.prompt.items())) or "-"


def reading_frame(groups: Sequence[GroupResult]) -> pd.DataFrame:
    """Per group and field: messages scored, correct, accuracy and its interval."""
    records = []
    for g in groups:
        for field, figure in (g.reading or {}).items():
            n, correct = int(figure["n"]), int(figure["correct"])
            records.append(
                {
                    "Suite": g.suite,
                    "Provider": g.label,
                    "Prompt": _prompt(g),
                    "Field": field,
                    "Messages": n,
                    "Correct": correct,
                    "Accuracy": pct(correct / n if n else None),
                    "95% CI": interval(correct, n),
                }
            )
    return pd.DataFrame.from_records(records)


def causes_frame(groups: Sequence[GroupResult]) -> pd.DataFrame:
    """Per group: failed cases, and how many failed on the reading, on the decision, or
    cannot be told."""
    records = [
        {
            "Suite": g.suite,
            "Provider": g.label,
            "Prompt": _prompt(g),
            "Failed": g.scored - g.passed,
            "Reading failed": g.failed_by["reading"],
            "Decision failed": g.failed_by["decision"],
            "Unknown": g.failed_by["unknown"],
        }
        for g in groups
        if g.failed_by is not None
    ]
    return pd.DataFrame.from_records(records)


def not_runnable_frame(meta: Mapping[str, Any]) -> pd.DataFrame:
    """The cases a gold run left out for want of a gold reading."""
    found = meta.get("not_runnable")
    if not isinstance(found, list) or not found:
        return pd.DataFrame()
    return pd.DataFrame.from_records(
        [
            {"Suite": c.get("suite"), "Case": c.get("case_id"), "Why": c.get("reason")}
            for c in found
            if isinstance(c, dict)
        ]
    )


EXPLAIN = (
    "Each message with a gold reading is scored field by field against the provider's acts, "
    "aligned in order (an act one side lacks is compared with an empty act). `intent` is scored "
    "on every such message; `profile_field` and `spans` (parameters and corrected text, agreeing "
    "when the content words of one all appear in the other) where the gold reading sets them; "
    "the other fields where either side sets them. Intervals are 95% Wilson score intervals. "
    "A failed case failed on its **reading** when a gold field mismatched on a message up to its "
    "first failing turn, on its **decision** when every field matched there, and is "
    "**unknown** when a message up to that turn has no gold reading (docs/evals.md, "
    '"Reading accuracy").'
)
GOLD_NOTE = (
    "This run replayed the suites' gold readings (`--reading gold`): the classifier answered "
    "each message with its gold reading, the replies are the local template responder's and "
    "forget and recall use the local embedding model, so every failure is the decision's."
)


def reading_section(groups: Sequence[GroupResult], meta: Mapping[str, Any]) -> Section | None:
    """Reading accuracy, failures by cause and the cases left out (None when the run has
    neither gold readings nor a gold replay)."""
    gold = (meta.get("config") or {}).get("reading") == "gold"
    accuracy, causes = reading_frame(groups), causes_frame(groups)
    left_out = not_runnable_frame(meta)
    if accuracy.empty and causes.empty and left_out.empty and not gold:
        return None
    blocks: list[Any] = [Text(GOLD_NOTE if gold else EXPLAIN)]
    if not accuracy.empty:
        blocks.append(Table(accuracy, caption="Reading accuracy per field", short=_SHORT))
    if not causes.empty:
        blocks.append(Table(causes, caption="Failed cases by cause", short=_SHORT))
    if gold:
        blocks.append(
            Text(
                f"{len(left_out)} case(s) were not runnable under `--reading gold` (a message "
                "without a gold reading) and are not counted in any figure"
                + (":" if not left_out.empty else ".")
            )
        )
        if not left_out.empty:
            blocks.append(Table(left_out))
    return Section(TITLE, blocks)
