"""Agreement across epochs, case by case, and the flaky cases (epochs that disagree).

A case is flaky when, over its scored epochs (errors are not verdicts), some passed and some
failed. Cases whose answers differ but whose verdicts agree are not flaky: the scorer accepts
both answers. A comparison can count flaky cases at their majority verdict or leave them out
(evals/report/compare.py).
"""

from __future__ import annotations

import pandas as pd

from evals.report.document import Block, Details, Table, Text
from evals.report.tables import GROUP, pct

_SHORT = ("Provider", "Prompt")
# more flaky cases than this are folded under the count
FOLD_AFTER = 20


def per_case(df: pd.DataFrame) -> pd.DataFrame:
    """One line per case run in more than one epoch: its verdicts and answers by epoch."""
    scored = df[~df["errored"]]
    if scored.empty or scored["epoch"].max() == 0:
        return pd.DataFrame()
    records = []
    for (suite, label, prompt, case_id), group in scored.groupby([*GROUP, "case_id"], sort=True):
        if group["epoch"].nunique() < 2:
            continue
        ordered = group.sort_values("epoch")
        passes, epochs = int(ordered["passed"].sum()), len(ordered)
        majority = max(passes, epochs - passes)
        records.append(
            {
                "Suite": suite,
                "Provider": label,
                "Prompt": prompt,
                "Case": case_id,
                "Epochs": epochs,
                "Passed": passes,
                "Verdicts by epoch": "".join("✓" if p else "✗" for p in ordered["passed"]),
                "Answers": int(ordered["answer"].nunique()),
                "Agreement": pct(majority / epochs),
                "Flaky": 0 < passes < epochs,
            }
        )
    return pd.DataFrame.from_records(records)


def flaky_blocks(df: pd.DataFrame) -> list[Block]:
    """The report's flaky cases: how many per group, each listed, and every case's agreement."""
    cases = per_case(df)
    if cases.empty:
        return []
    flaky = cases[cases["Flaky"]].drop(columns=["Flaky"])
    every = cases.drop(columns=["Flaky"])
    intro = Text(
        f"{len(flaky)} flaky case(s) of {len(cases)} run in more than one epoch: their scored "
        "epochs disagree (✓ pass, ✗ fail, in epoch order). A comparison counts them at their "
        "majority verdict, or leaves them out with `converse report RUN --compare BASE --flaky "
        "exclude`. Agreement: the share of epochs with the majority verdict; Answers: how many "
        "different answers the epochs gave."
    )
    blocks: list[Block] = [intro]
    if not flaky.empty:
        table = Table(flaky.reset_index(drop=True), short=_SHORT)
        if len(flaky) > FOLD_AFTER:
            blocks.append(Details(f"The {len(flaky)} flaky cases", [table]))
        else:
            blocks.append(table)
    blocks.append(
        Details(
            "Every case's agreement across epochs",
            [Table(every.reset_index(drop=True), short=_SHORT)],
        )
    )
    return blocks
