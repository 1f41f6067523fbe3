"""The report's writing-constraints section: per writing suite and provider, the share of new
memory items passing the format checks as first written, per write path, and each failing
item with the rules it broke."""

from __future__ import annotations

import pandas as pd

from evals.report.document import Block, Section, Table, Text
from evals.runner.summary import GroupResult
from evals.targets import in_section

# The section's title; a target's spec names it to have its groups shown here.
TITLE = "Writing constraints"

NOTE = (
    "Share of new memory items that pass the writing constraints as first written "
    "(specification 004 asks for at least 95%); failing items are trimmed when only length "
    "or sentence count is wrong, and otherwise not stored (a narrative falls back to the "
    "deterministic one)."
)


def writing_section(groups: list[GroupResult]) -> Section | None:
    """The section, or None when the run has no writing suite."""
    chosen = [g for g in groups if in_section(g.target, TITLE) and g.metrics is not None]
    if not chosen:
        return None
    blocks: list[Block] = [Text(NOTE)]
    for g in chosen:
        assert g.metrics is not None
        m = g.metrics
        rate = m.get("first_pass_rate")
        lo, hi = m.get("first_pass_ci95", [0, 0])
        shown = "n/a" if rate is None else f"{rate:.1%} (95% CI {lo:.1%}–{hi:.1%})"
        blocks.append(
            Text(f"**{g.suite}** on {g.label}: {m['first_pass']} of {m['items']} items — {shown}")
        )
        paths = pd.DataFrame(
            [{"path": path, **figures} for path, figures in m.get("by_path", {}).items()]
        )
        if not paths.empty:
            blocks.append(Table(paths))
        failing = pd.DataFrame(
            [
                {
                    "case": f["case"],
                    "path": f["path"],
                    "item as written": f["text"],
                    "rules broken": "; ".join(f["problems"] or []),
                    "stored": f["stored"] if f["stored"] is not None else "(not stored)",
                }
                for f in m.get("failing", [])
            ]
        )
        if not failing.empty:
            blocks.append(Table(failing))
    return Section(TITLE, blocks)
