"""Scoring a forget match: the action, and the matched contents compared as a set."""

from __future__ import annotations

from typing import Any

from evals.dataset.models import ForgetExpect
from evals.scorers.base import Check, Score, Scorer


def _score(expect: ForgetExpect, got: dict[str, Any]) -> Score:
    action = got.get("action")
    matched = list(got.get("matched") or [])
    ok_action = action == expect.action
    want, have = set(expect.matched), set(matched)
    ok_matched = want == have
    why = ""
    if not ok_matched:
        parts = []
        if want - have:
            parts.append(f"missing {sorted(want - have)}")
        if have - want:
            parts.append(f"unexpected {sorted(have - want)}")
        why = "matched: " + ", ".join(parts)
    checks = (
        Check(
            "action",
            expect.action,
            action,
            ok_action,
            "" if ok_action else f"action {action}, expected {expect.action}",
        ),
        Check("matched", sorted(want), sorted(have), ok_matched, why),
    )
    return Score(
        scorer=FORGET_MATCH.name,
        version=FORGET_MATCH.version,
        expected=expect.model_dump(mode="json"),
        got={"action": action, "matched": matched},
        checks=checks,
    )


FORGET_MATCH = Scorer("forget_match_action_set", 1, _score)
