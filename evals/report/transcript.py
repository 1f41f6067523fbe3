"""Failed and errored conversations as transcripts: each turn beside what it did to memory.

A conversation fails on a turn, not in a cell: the reader needs what was said, how it was
handled, what changed in memory since the turn before, and which expectation broke there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from evals.report.document import Section, Table, Text
from evals.targets import is_transcript

Fact = Mapping[str, Any]
# The transcript is for reading; a long reply is cut here, never in the row the scorer reads.
MAX_REPLY_CHARS = 400
_TURN_PREFIX = re.compile(r"^turn \d+: ")


def _line(fact: Fact) -> str:
    return f"#{fact['number']} {fact['state']}: {fact['content']}"


def memory_diff(before: Sequence[Fact], after: Sequence[Fact]) -> list[str]:
    """What changed between two snapshots: added (+), changed (~) and erased (−) facts."""
    old = {f["number"]: f for f in before}
    new = {f["number"]: f for f in after}
    lines: list[str] = []
    for number in sorted(new):
        fact = new[number]
        was = old.get(number)
        if was is None:
            lines.append(f"+ {_line(fact)}")
            continue
        changes = []
        if was["state"] != fact["state"]:
            changes.append(f"{was['state']} → {fact['state']}")
        if was["content"] != fact["content"]:
            changes.append(f"{was['content']!r} → {fact['content']!r}")
        if changes:
            lines.append(f"~ #{number} " + "; ".join(changes))
    lines += [f"− {_line(old[n])} (erased)" for n in sorted(old.keys() - new.keys())]
    return lines


def _cut(text: str) -> str:
    return text if len(text) <= MAX_REPLY_CHARS else text[: MAX_REPLY_CHARS - 1] + "…"


def _said(record: Mapping[str, Any]) -> str:
    if "erase" in record:
        erased = record.get("erased")
        done = f"\nerased {_line(erased)}" if erased else ""
        return f"[operator erases the fact containing {record['erase']!r}]{done}"
    return str(record.get("message", ""))


def _handled(record: Mapping[str, Any]) -> str:
    if "erase" in record or "intent" not in record:
        return ""
    params = record.get("params") or {}
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"{record['intent']} → {record.get('action')}" + (f"\n{shown}" if shown else "")


def _reading_cells(reading: Any) -> dict[int, str]:
    """Per turn with a gold reading: ✓ when the provider read it so, else what differed."""
    cells: dict[int, str] = {}
    for message in reading if isinstance(reading, list) else []:
        if isinstance(message, dict) and "turn" in message:
            why = message.get("why") or []
            cells[int(message["turn"])] = "✗ " + "\n✗ ".join(map(str, why)) if why else "✓"
    return cells


def transcript_table(
    got: Mapping[str, Any], checks: Sequence[Mapping[str, Any]], reading: Any = None
) -> pd.DataFrame:
    """One line per turn: said, project, handled, reply, memory changes, failed expectations,
    and, where the row scored the reading against gold readings, how each turn was read."""
    start = got.get("start") or {}
    memory: Sequence[Fact] = start.get("memory") or []
    notes: dict[str, Sequence[Fact]] = dict(start.get("notes") or {})
    failed: dict[int, list[str]] = {}
    for check in checks:
        if not check.get("pass") and check.get("turn") is not None:
            why = _TURN_PREFIX.sub("", str(check.get("why") or check.get("name")))
            failed.setdefault(int(check["turn"]), []).append(f"✗ {why}")
    records = []
    read = _reading_cells(reading)
    for record in got.get("turns") or []:
        turn = int(record["turn"])
        changes: list[str] = []
        if "memory" in record:
            changes = memory_diff(memory, record["memory"])
            memory = record["memory"]
        project = record.get("project")
        if project and record.get("notes") is not None:
            changes += [
                f"notes {line}" for line in memory_diff(notes.get(project, []), record["notes"])
            ]
            notes[project] = record["notes"]
        problems = failed.pop(turn, [])
        if record.get("error"):
            problems.insert(0, "error: " + _TURN_PREFIX.sub("", str(record["error"])))
        line = {
            "Turn": f"{turn} ✗" if problems else str(turn),
            "Operator": _said(record),
            "Project": project or "—",
            "Handled as": _handled(record),
            "Reply": _cut(str(record.get("reply", ""))),
            "Memory changes": "\n".join(changes) or "(none)",
            "Failed expectation": "\n".join(problems),
        }
        if read:  # only rows scored against gold readings have the column
            line["Reading (against gold)"] = read.get(turn, "no gold reading")
        if record.get("turn_ids"):  # rows written before turn ids were kept have none
            line["Turn ids"] = " / ".join(f"#{i}" for i in record["turn_ids"])
            shown = record.get("classifier_shown") or []
            line["Classifier shown"] = "\n".join(_cut(str(t)) for t in shown) or "(nothing)"
        records.append(line)
    for turn, problems in sorted(failed.items()):  # checks on turns that never ran
        records.append({"Turn": f"{turn} ✗", "Failed expectation": "\n".join(problems)})
    return pd.DataFrame.from_records(records).fillna("")


def _seeds(got: Mapping[str, Any]) -> str:
    start = got.get("start") or {}
    memory = [_line(f) for f in start.get("memory") or []]
    notes = [
        f"{project}: {_line(f)}" for project, facts in (start.get("notes") or {}).items()
        for f in facts
    ]  # fmt: skip
    parts = []
    if memory:
        parts.append("personal memory " + "; ".join(memory))
    if notes:
        parts.append("project knowledge " + "; ".join(notes))
    return "Before turn 1: " + (" / ".join(parts) if parts else "nothing stored") + "."


def conversation_section(df: pd.DataFrame) -> Section | None:
    """Every failed or errored conversation as a transcript (None when there is none)."""
    shown = df[df["target"].map(is_transcript).astype(bool) & (df["status"] != "pass")]
    if shown.empty:
        return None
    section = Section("Failed conversations")
    for row in shown.itertuples(index=False):
        got = json.loads(row.answer) or {}
        epoch = f", epoch {row.epoch}" if row.epoch else ""
        title = f"{row.suite} — {row.provider_label} — `{row.case_id}` ({row.status}{epoch})"
        verdict = (
            f"Reviewer: {row.review} by {row.reviewer}: {row.review_note}"
            if row.review
            else "Not reviewed."
        )
        if row.failed_by:
            verdict += f" Failed on: {row.failed_by}" + (
                f" ({row.reading_why})." if row.failed_by == "reading" and row.reading_why else "."
            )
        section.blocks += [
            Text(f"**{title}**"),
            Text(f"{_seeds(got)} {verdict}"),
            Table(transcript_table(got, row.checks, row.reading_scores)),
        ]
    return section
