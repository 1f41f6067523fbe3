"""Scoring a consolidation pass by what memory holds after it: no two different facts merged
(a fact lost from live memory is a wrong merge too), and at most the expected duplicates left.

The row's `got` carries duplicates before and after, so the suite's reduction is measurable
even where a case fails."""

from __future__ import annotations

from typing import Any

from evals.dataset.consolidation import ConsolidationExpect
from evals.scorers.base import Check, Score, Scorer


def _score(expect: ConsolidationExpect, got: dict[str, Any]) -> Score:
    wrong = got.get("wrongly_merged") or []
    lost = int(got.get("facts_lost", 0))
    after = int(got.get("duplicates_after", 0))
    checks = (
        Check(
            "no distinct facts merged",
            0,
            len(wrong),
            not wrong,
            "" if not wrong else f"merged different facts: {wrong}",
        ),
        Check("no fact lost", 0, lost, lost == 0, "" if lost == 0 else f"{lost} fact(s) lost"),
        Check(
            "duplicates merged",
            expect.duplicates_after,
            after,
            after <= expect.duplicates_after,
            ""
            if after <= expect.duplicates_after
            else f"{after} duplicate(s) remain (at most {expect.duplicates_after} expected)",
        ),
    )
    return Score(
        scorer=CONSOLIDATION.name,
        version=CONSOLIDATION.version,
        expected=expect.model_dump(mode="json"),
        got=got,
        checks=checks,
    )


CONSOLIDATION = Scorer("consolidation_outcome", 1, _score)
