"""Tables split per suite × provider × prompt, so no row repeats the long labels.

Each group's table is titled with the full labels once. Per-tag accuracy is folded (a run has
about a hundred tags), worst tag first, with the tags too small to judge in a group of their own.
"""

from __future__ import annotations

import pandas as pd

from evals.report import tables
from evals.report.document import Block, Details, Table, Text

# Below this many scored cases a tag's accuracy says little; such tags are folded apart.
MIN_TAG_CASES = 5
_KEY = ["Suite", "Provider", "Prompt"]


def group_title(suite: str, provider: str, prompt: str) -> str:
    """The one line naming a group."""
    return f"{suite} — {provider} — prompt {prompt}"


def worst_first(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows by accuracy (lowest first; nothing scored counts as lowest), then most errors."""
    rate = (frame["Passed"] / frame["Scored"].where(frame["Scored"] > 0)).fillna(-1.0)
    order = pd.DataFrame({"rate": rate, "errors": -frame["Errors"], "n": -frame["Scored"]})
    return frame.loc[order.sort_values(["rate", "errors", "n"], kind="stable").index]


def _tag_summary(title: str, shown: pd.DataFrame, small: pd.DataFrame) -> str:
    worst = ""
    if not shown.empty:
        first = shown.iloc[0]
        worst = f"; lowest: {first['Tag']} {first['Accuracy']} of {first['Scored']}"
    return f"{title}: {len(shown) + len(small)} tags{worst}"


def per_tag_blocks(df: pd.DataFrame) -> list[Block]:
    """A folded table per group, worst tag first; tags with < MIN_TAG_CASES folded apart."""
    frame = tables.per_tag(df)
    if frame.empty:
        return [Text("No case in this run has tags.")]
    blocks: list[Block] = [
        Text(
            f"Each group is folded; open it to see its tags, lowest accuracy first. Tags with "
            f"fewer than {MIN_TAG_CASES} scored cases are folded apart: their accuracy is noise."
        )
    ]
    for (suite, provider, prompt), group in frame.groupby(_KEY, sort=True):
        rows = worst_first(group.drop(columns=_KEY))
        big = rows[rows["Scored"] >= MIN_TAG_CASES]
        small = rows[rows["Scored"] < MIN_TAG_CASES]
        title = group_title(str(suite), str(provider), str(prompt))
        inner: list[Block] = [Table(big)] if not big.empty else []
        if not small.empty:
            inner.append(
                Details(
                    f"{len(small)} tag(s) with fewer than {MIN_TAG_CASES} scored cases",
                    [Table(small)],
                )
            )
        blocks.append(Details(_tag_summary(title, big, small), inner))
    return blocks


def failure_blocks(df: pd.DataFrame) -> list[Block]:
    """Failed cases (conversations apart) as one table per group: expected, got, why, verdict."""
    frame = tables.failures(df)
    if frame.empty:
        return [Table(frame)]
    blocks: list[Block] = []
    for (suite, provider, prompt), group in frame.groupby(_KEY, sort=True):
        rows = group.drop(columns=_KEY).sort_values(["Case", "Epoch"], kind="stable")
        if (rows["Epoch"] == 0).all():
            rows = rows.drop(columns=["Epoch"])
        title = group_title(str(suite), str(provider), str(prompt))
        blocks.append(Table(rows, caption=f"{title} ({len(rows)} failed)"))
    return blocks
