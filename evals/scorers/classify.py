"""Scoring a classification: the intent, then each expected parameter's substrings."""

from __future__ import annotations

from typing import Any

from evals.dataset.models import ClassifyExpect, TextCheck
from evals.scorers.base import Check, Score, Scorer, text_checks


def intent_and_param_checks(
    intent: str | None, params: dict[str, TextCheck], got: dict[str, Any]
) -> list[Check]:
    """The intent check and one check per expected parameter."""
    checks: list[Check] = []
    if intent is not None:
        ok = got.get("intent") == intent
        checks.append(
            Check(
                "intent",
                intent,
                got.get("intent"),
                ok,
                "" if ok else f"intent {got.get('intent')}, expected {intent}",
            )
        )
    got_params = got.get("params") or {}
    for name, check in params.items():
        value = got_params.get(name)
        checks.extend(text_checks(f"params.{name}", value, check.contains, check.excludes))
    return checks


def _score(expect: ClassifyExpect, got: dict[str, Any]) -> Score:
    return Score(
        scorer=CLASSIFY.name,
        version=CLASSIFY.version,
        expected=expect.model_dump(mode="json", exclude_defaults=True),
        got={"intent": got.get("intent"), "params": got.get("params") or {}},
        checks=tuple(intent_and_param_checks(expect.intent, expect.params, got)),
    )


CLASSIFY = Scorer("classify_intent_params", 1, _score)
