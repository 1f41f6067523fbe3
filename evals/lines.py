"""A target's rows in one line: what the report's tables and `converse record` print.

Each target's spec (evals/targets.py) names the functions that describe its `expected` and
`got`; a target without its own shows the value as JSON, cut short. Rows come from files
written by any version of the harness, so every function accepts a damaged value and shows
what it holds rather than failing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def short(value: Any, limit: int = 160) -> str:
    """A value as text in at most `limit` characters (JSON unless it is a string)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def classify_expected(expected: Any) -> str:
    """The intent and each parameter check: 'remember; topic ∋ [tea] ∌ [coffee]'."""
    if not isinstance(expected, Mapping) or "intent" not in expected:
        return short(expected)
    parts = [str(expected["intent"])]
    params = expected.get("params")
    for name, check in (params if isinstance(params, dict) else {}).items():
        if not isinstance(check, dict):  # a damaged row: show what it holds
            parts.append(f"{name} {short(check, 40)}")
            continue
        has = ", ".join(map(str, check.get("contains") or []))
        lacks = ", ".join(map(str, check.get("excludes") or []))
        parts.append(f"{name} ∋ [{has}]" + (f" ∌ [{lacks}]" if lacks else ""))
    return "; ".join(parts)


def classify_got(got: Mapping[str, Any]) -> str:
    """The intent with its parameters: "remember (topic='tea')"."""
    params = got.get("params")
    shown = ", ".join(f"{k}={v!r}" for k, v in (params if isinstance(params, dict) else {}).items())
    return f"{got.get('intent')}" + (f" ({shown})" if shown else "")


def classify_recorded(got: Mapping[str, Any]) -> str:
    """The intent the recorded call answered."""
    return str(got.get("intent"))


def memory_block_got(got: Mapping[str, Any]) -> str:
    """The block's length and its opening."""
    block = str(got.get("block", ""))
    return f"{got.get('chars', len(block))} chars: {short(block, 120)!r}" if block else "(empty)"


def forget_line(side: Any) -> str:
    """The action and the facts it matched (the same on both sides)."""
    if not isinstance(side, Mapping):
        return short(side)
    return f"{side.get('action')} {side.get('matched', [])}"


def conversation_expected(expected: Any) -> str:
    """Which turns carry checks."""
    if not isinstance(expected, list):
        return short(expected)
    return f"checks on {len(expected)} turn(s): " + ", ".join(str(e.get("turn")) for e in expected)


def conversation_got(got: Mapping[str, Any]) -> str:
    """The personal memory after the last turn that ran."""
    turns = got.get("turns") or []
    if not turns:
        return "(no turn ran)"
    last = turns[-1]
    live = [f for f in last.get("memory") or [] if f.get("state") != "retracted"]
    facts = "; ".join(f"#{f['number']} {f['state']}: {f['content']}" for f in live)
    return short(f"after turn {last.get('turn')}: {facts or 'no personal facts'}")


def conversation_recorded(got: Mapping[str, Any]) -> str:
    """How many turns ran, and what each was classified as."""
    turns = got.get("turns") or []
    intents = ", ".join(str(t.get("classified") or "erase") for t in turns)
    return f"{len(turns)} turns ({intents})"


def compaction_recorded(got: Mapping[str, Any]) -> str:
    """How many compactions ran, and whether Claude judged the summary."""
    compactions = got.get("compactions") or []
    judged = "judged" if "items" in (got.get("rubric") or {}) else "not judged"
    return f"{len(compactions)} compaction(s), {judged}"


def closure_recorded(got: Mapping[str, Any]) -> str:
    """Where the compressed conversation was routed."""
    return f"compressed -> {got.get('destination')}"
