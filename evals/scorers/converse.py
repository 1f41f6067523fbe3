"""Scoring a whole turn: classification, reply text, and personal memory afterwards."""

from __future__ import annotations

from typing import Any

from evals.dataset.models import ConverseExpect
from evals.scorers.base import Check, Score, Scorer, text_checks
from evals.scorers.classify import intent_and_param_checks


def _memory_checks(expect: ConverseExpect, got: dict[str, Any]) -> list[Check]:
    if expect.memory is None:
        return []
    memory: dict[str, list[str]] = got.get("memory") or {}
    checks: list[Check] = []
    for state in ("held", "committed", "retracted"):
        contents = memory.get(state, [])
        for needle in getattr(expect.memory, state):
            ok = any(needle.casefold() in c.casefold() for c in contents)
            why = "" if ok else f"no {state} personal memory contains {needle!r}"
            checks.append(Check(f"memory.{state}", needle, contents, ok, why))
    return checks


def _score(expect: ConverseExpect, got: dict[str, Any]) -> Score:
    checks = intent_and_param_checks(expect.intent, expect.params, got)
    if expect.reply is not None:
        checks.extend(
            text_checks("reply", got.get("reply"), expect.reply.contains, expect.reply.excludes)
        )
    checks.extend(_memory_checks(expect, got))
    return Score(
        scorer=CONVERSE.name,
        version=CONVERSE.version,
        expected=expect.model_dump(mode="json", exclude_defaults=True),
        got=got,
        checks=tuple(checks),
    )


CONVERSE = Scorer("converse_turn", 1, _score)
