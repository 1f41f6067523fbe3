"""Scoring a compaction summary: every required item present (any of its alternatives,
case-insensitive), no superseded fact kept, and, when Claude judged it, the rubric agreeing.

The row's `got` carries per-item recall, so a failed case still says how much it kept.
"""

from __future__ import annotations

from typing import Any

from evals.dataset.compaction import CompactionExpect
from evals.scorers.base import Check, Score, Scorer


def _items(expect: CompactionExpect, summary: str) -> list[Check]:
    folded = summary.casefold()
    checks: list[Check] = []
    for kind, alternatives in expect.items():
        found = next((a for a in alternatives if a.casefold() in folded), None)
        ok = found is not None
        wanted = " or ".join(repr(a) for a in alternatives)
        checks.append(
            Check(
                f"{kind} kept",
                alternatives,
                found,
                ok,
                "" if ok else f"summary lacks {kind} {wanted}",
            )
        )
    return checks


def _excludes(expect: CompactionExpect, summary: str) -> list[Check]:
    folded = summary.casefold()
    return [
        Check(
            "superseded dropped",
            needle,
            needle.casefold() in folded,
            needle.casefold() not in folded,
            "" if needle.casefold() not in folded else f"summary keeps superseded {needle!r}",
        )
        for needle in expect.excludes
    ]


def _rubric(rubric: dict[str, Any]) -> list[Check]:
    """The judge's verdicts as checks (none when the rubric was skipped)."""
    if "items" not in rubric:
        return []
    checks = [
        Check(
            f"rubric {v['kind']}",
            v["item"],
            v.get("evidence", ""),
            bool(v["present"]),
            "" if v["present"] else f"judge: summary lacks {v['kind']} {v['item']!r}",
        )
        for v in rubric["items"]
    ]
    unsupported = rubric.get("unsupported", [])
    ok = bool(rubric.get("faithful"))
    checks.append(
        Check(
            "rubric faithful",
            True,
            unsupported,
            ok,
            "" if ok else f"judge: unfaithful ({'; '.join(unsupported) or 'no claim named'})",
        )
    )
    return checks


def _score(expect: CompactionExpect, got: dict[str, Any]) -> Score:
    summary: str = got.get("summary") or ""
    items = _items(expect, summary)
    kept = sum(c.passed for c in items)
    checks = items + _excludes(expect, summary) + _rubric(got.get("rubric") or {})
    return Score(
        scorer=COMPACTION.name,
        version=COMPACTION.version,
        expected=expect.model_dump(mode="json", exclude_defaults=True),
        got={**got, "recall": {"kept": kept, "required": len(items)}},
        checks=tuple(checks),
    )


COMPACTION = Scorer("compaction_phrases", 1, _score)
