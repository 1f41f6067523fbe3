"""The history table `memory history` and `notes history` print: every change of one
assertion, oldest first, in words a person reads (who did it, what it was before and after)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from pipeline.cli.common import shown
from pipeline.memory.who import who

if TYPE_CHECKING:
    from pipeline.domain import HistoryEntry

# The state `list --deleted` shows for an assertion the lifecycle sweep set aside.
SET_ASIDE = "set aside"


def _quoted(value: str | None, erased: bool) -> str:
    if value is None:
        return "[text erased]" if erased else "—"
    return repr(value)


def _change(entry: HistoryEntry) -> tuple[str, str]:
    """What an entry changed, as (before, after) cells; text already made safe to print."""
    from pipeline.domain import HistoryOp  # pydantic: not for the pages that list commands

    detail = entry.detail
    erased = bool(detail.get("erased"))
    if entry.op is HistoryOp.DELETE:
        return shown(entry.old_force or ""), f"{detail.get('reason', 'erased')} (text removed)"
    if entry.op is HistoryOp.TTL:
        since = str(detail.get("last_accessed_at", ""))[:10]
        return "live", f"{SET_ASIDE} (unused since {since}, importance {detail.get('importance')})"
    if entry.op is HistoryOp.LINK:
        strength = float(detail.get("strength", 0.0))
        return "—", f"related to #{detail.get('linked_number')} (strength {strength:.2f})"
    if entry.op is HistoryOp.RESTORE and entry.old_force is None:
        return SET_ASIDE, "live"
    if "importance" in detail:
        was, now = detail["importance"]
        return f"importance {was:g}", f"importance {now:g}"
    if "category" in detail and entry.op is HistoryOp.UPDATE:
        was, now = detail["category"]
        return f"category {shown(was)}", f"category {shown(now)}"
    if "pinned" in detail:
        was, now = detail["pinned"]
        return ("pinned" if was else "not pinned"), ("pinned" if now else "not pinned")
    before: list[str] = []
    after: list[str] = []
    if entry.op is HistoryOp.ADD:
        after.append(_quoted(entry.new_content, erased))
    elif entry.old_force is None:  # the content changed
        before.append(_quoted(entry.old_content, erased))
        after.append(_quoted(entry.new_content, erased))
    if entry.old_force is not None:
        before.append(entry.old_force.value)
    if entry.new_force is not None:
        after.append(entry.new_force.value)
    rationale = detail.get("rationale")
    if isinstance(rationale, str):
        after.append(f"({rationale})")
    elif erased and entry.old_force is not None:  # a retraction whose rationale was erased
        after.append("([text erased])")
    return shown(" ".join(before)) or "—", shown(" ".join(after)) or "—"


def history_table(entries: list[HistoryEntry], title: str) -> Table:
    """Every change, oldest first: when, op, who, before → after."""
    table = Table(title=title, title_justify="left")
    for column in ("when (UTC)", "op", "who", "before", "", "after"):
        table.add_column(column)
    for entry in entries:
        before, after = _change(entry)
        table.add_row(
            f"{entry.created_at:%Y-%m-%d %H:%M:%S}",
            entry.op.value,
            who(entry.actor.value),
            before,
            "→",
            after,
        )
    return table
