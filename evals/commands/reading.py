"""`converse eval --reading`: which options a gold run refuses, and the reading figures the
summary prints (docs/evals.md, "Gold readings" and "Reading accuracy")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from rich.console import Console

from evals.commands.eval_tables import frame_table
from evals.report.reading import causes_frame, reading_frame
from evals.runner import GroupResult
from evals.runner.gold import GOLD, READINGS
from pipeline.cli.common import shown
from pipeline.errors import ConverseError

_HINT = "drop it: --reading gold replays the suites' gold readings with template replies"


def check_reading(reading: str, given: Mapping[str, object]) -> bool:
    """Whether the run replays gold readings; a ConverseError for an unknown --reading, or an
    option in `given` (option -> its value; None, False or empty: not given) that means
    nothing beside gold readings."""
    if reading not in READINGS:
        raise ConverseError(
            f"--reading {reading!r} is not one of {', '.join(READINGS)}",
            "--reading provider (the default) or --reading gold",
        )
    if reading != GOLD:
        return False
    for option, value in given.items():
        if value is not None and value is not False and value != [] and value != ():
            raise ConverseError(f"--reading gold takes no {option}: no model reads", _HINT)
    return True


def reading_payload(
    gold: bool, groups: list[GroupResult], not_runnable: Sequence[dict[str, str]]
) -> dict[str, Any]:
    """What `--json` adds for a gold run (a resumed one included): the reading, and the
    cases left out for want of a gold reading."""
    if not gold and not any(g.reading_mode == GOLD for g in groups):
        return {}
    return {"reading": GOLD, "not_runnable": {"n": len(not_runnable), "cases": list(not_runnable)}}


def _narrow(frame: pd.DataFrame, groups: list[GroupResult]) -> pd.DataFrame:
    """A report frame as the terminal shows it beside the 80-column summary: each provider by
    its name (its label and prompts are under the summary), no prompt column."""
    if frame.empty:
        return frame
    names = {g.label: g.provider for g in groups}
    narrow = frame.drop(columns=[c for c in ("Prompt",) if c in frame.columns])
    if "Provider" in narrow.columns:
        narrow = narrow.assign(Provider=narrow["Provider"].map(lambda p: names.get(p, p)))
    return narrow


def print_reading(
    console: Console, groups: list[GroupResult], not_runnable: Sequence[dict[str, str]]
) -> None:
    """The reading accuracy per field, the failed cases by cause, and the cases a gold run
    could not replay (nothing when the run has none of these)."""
    accuracy = _narrow(reading_frame(groups), groups)
    if not accuracy.empty:
        console.print(frame_table("reading accuracy per field (against gold readings)", accuracy))
    causes = _narrow(causes_frame(groups), groups)
    if not causes.empty:
        console.print(frame_table("failed cases: the reading or the decision", causes))
    if not_runnable:
        first = not_runnable[0]
        console.print(
            f"not runnable under --reading gold: {len(not_runnable)} case(s), not counted "
            f"above (first: {shown(first['suite'])}/{shown(first['case_id'])}: "
            f"{first['reason']}); the report lists them",
            highlight=False,
            soft_wrap=True,
        )
