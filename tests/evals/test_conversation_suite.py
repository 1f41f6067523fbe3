"""The conversations suite keeps its contract: well-formed turns and every behaviour class covered.

Read as plain YAML, so these checks hold whichever runner scores the suite. Also: refinement cases
of the continuation suites check that the old value is gone, so a garbled fact cannot pass.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.config import PROJECT_ROOT
from pipeline.intents.taxonomy import INTENTS

SUITE = PROJECT_ROOT / "evals" / "suites" / "conversations.yaml"
CONTINUATIONS = [
    PROJECT_ROOT / "evals" / "suites" / "continuations.yaml",
    PROJECT_ROOT / "evals" / "heldout" / "heldout_continuations.yaml",
]

# The behaviour classes the suite must cover, at least MIN_PER_CLASS cases each.
CLASSES = (
    "refine-value",
    "refine-narrow",
    "refine-time",
    "refine-identifier",
    "two-facts",
    "unrelated-after-offer",
    "forget-correction",
    "forget-clause",
    "knowledge-retract",
    "recall",
    "capabilities",
    "cross-promotion",
    "erase-recall",
    "spec-examples",
    "plain-flow",
)
MIN_PER_CLASS = 6
# Losing or corrupting a fact in these classes hurts a person: every case is critical.
ALWAYS_CRITICAL = (
    "refine-value",
    "refine-narrow",
    "refine-time",
    "refine-identifier",
    "two-facts",
    "forget-correction",
    "forget-clause",
    "erase-recall",
)

STATES = {"held", "committed", "retracted"}
ACTIONS = {
    "held",
    "refined",
    "committed",
    "rejected",
    "confirm_retraction",
    "ambiguous",
    "no_match",
    "retracted",
    "listed",
    "found",
    "described",
    "not_available",
    "none",
}
CASE_KEYS = {"id", "tags", "memories", "notes", "turns"}
TURN_KEYS = {"message", "erase", "project", "expect", "reading", "after"}
EXPECT_KEYS = {"intent", "action", "memory", "memory_only", "notes", "reply", "status"}
FACT_KEYS = {"state", "text"}
TEXT_KEYS = {"contains", "excludes"}
AGE = re.compile(r"^\d+ (minute|hour|day|week|month|year)s?$")


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def suite() -> dict[str, Any]:
    return _load(SUITE)


def _text_problems(where: str, check: Any) -> list[str]:
    if not isinstance(check, dict) or not set(check) <= TEXT_KEYS:
        return [f"{where}: a text check has only contains/excludes"]
    words = list(check.get("contains") or []) + list(check.get("excludes") or [])
    # A bare number in YAML is an int: quote it, so the check is the substring that was meant.
    return [f"{where}: needle {w!r} is not a non-empty string" for w in words if not _needle(w)]


def _needle(word: Any) -> bool:
    return isinstance(word, str) and bool(word.strip())


def _fact_problems(where: str, facts: Any) -> list[str]:
    if not isinstance(facts, list):
        return [f"{where}: a list of facts"]
    problems = []
    for fact in facts:
        if not isinstance(fact, dict) or not set(fact) <= FACT_KEYS or "text" not in fact:
            problems.append(f"{where}: a fact is {{state?, text}}")
            continue
        if "state" in fact and fact["state"] not in STATES:
            problems.append(f"{where}: unknown state {fact['state']!r}")
        problems += _text_problems(where, fact["text"])
    return problems


def _seed_problems(where: str, seeds: Any, *, project: bool) -> list[str]:
    keys = {"content", "age", "state"} | ({"project"} if project else set())
    problems = []
    for seed in seeds or []:
        if not isinstance(seed, dict) or set(seed) - keys or "content" not in seed:
            problems.append(f"{where}: a seed is {sorted(keys)}")
            continue
        if project and not seed.get("project"):
            problems.append(f"{where}: a note seed names its project")
        if "age" in seed and not AGE.match(str(seed["age"])):
            problems.append(f"{where}: age {seed['age']!r}")
        if seed.get("state", "committed") not in STATES:
            problems.append(f"{where}: state {seed['state']!r}")
    return problems


def _turn_problems(where: str, turn: Any) -> list[str]:
    if not isinstance(turn, dict) or set(turn) - TURN_KEYS:
        return [f"{where}: a turn has only {sorted(TURN_KEYS)}"]
    if ("message" in turn) == ("erase" in turn):
        return [f"{where}: a turn is exactly one of message or erase"]
    if "erase" in turn and "project" in turn:
        return [f"{where}: an erase is an operator action outside any project"]
    expect = turn.get("expect") or {}
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        return [f"{where}: expect has only {sorted(EXPECT_KEYS)}"]
    problems = []
    if "intent" in expect and expect["intent"] not in INTENTS:
        problems.append(f"{where}: unknown intent {expect['intent']!r}")
    if "action" in expect and expect["action"] not in ACTIONS:
        problems.append(f"{where}: unknown action {expect['action']!r}")
    if "memory_only" in expect and not isinstance(expect["memory_only"], bool):
        problems.append(f"{where}: memory_only is true or false")
    for key in ("memory", "notes"):
        if key in expect:
            problems += _fact_problems(f"{where} {key}", expect[key])
    if "reply" in expect:
        problems += _text_problems(f"{where} reply", expect["reply"])
    return problems


def test_header_and_gate(suite: dict[str, Any]) -> None:
    assert suite["name"] == "conversations"
    assert suite["target"] == "conversation"
    assert suite["gate"] == {"accuracy": 0.90, "critical_failures": 0}


def test_cases_are_well_formed(suite: dict[str, Any]) -> None:
    cases = suite["cases"]
    ids = [case["id"] for case in cases]
    assert len(ids) == len(set(ids)), "case ids are unique"
    problems = []
    for case in cases:
        where = case["id"]
        if set(case) - CASE_KEYS:
            problems.append(f"{where}: unknown keys {sorted(set(case) - CASE_KEYS)}")
        problems += _seed_problems(where, case.get("memories"), project=False)
        problems += _seed_problems(where, case.get("notes"), project=True)
        turns = case.get("turns") or []
        if not 2 <= len(turns) <= 8:
            problems.append(f"{where}: a conversation has 2 to 8 turns")
        if not any(isinstance(t, dict) and "expect" in t for t in turns):
            problems.append(f"{where}: no turn checks anything")
        for n, turn in enumerate(turns, 1):
            problems += _turn_problems(f"{where} turn {n}", turn)
    assert problems == []


def test_every_behaviour_class_is_covered(suite: dict[str, Any]) -> None:
    cases = suite["cases"]
    counts = Counter(tag for case in cases for tag in case["tags"] if tag in CLASSES)
    assert {c: counts[c] for c in CLASSES if counts[c] < MIN_PER_CLASS} == {}
    assert [c["id"] for c in cases if not set(c["tags"]) & set(CLASSES)] == []
    assert len(cases) >= 120


def test_classes_that_protect_facts_are_critical(suite: dict[str, Any]) -> None:
    loose = [
        case["id"]
        for case in suite["cases"]
        if set(case["tags"]) & set(ALWAYS_CRITICAL) and "critical" not in case["tags"]
    ]
    assert loose == []


def test_refinements_check_the_old_value_is_gone(suite: dict[str, Any]) -> None:
    """A refined turn's memory check excludes something (the old value), so garbling fails."""
    missing = []
    for case in suite["cases"]:
        for n, turn in enumerate(case["turns"], 1):
            expect = turn.get("expect") or {}
            if expect.get("action") == "refined":
                facts = expect.get("memory") or []
                if not any(f["text"].get("excludes") for f in facts):
                    missing.append(f"{case['id']} turn {n}")
    assert missing == []


@pytest.mark.parametrize("path", CONTINUATIONS, ids=lambda p: p.name)
def test_continuation_refinements_exclude_the_old_value(path: Path) -> None:
    missing = [
        case["id"]
        for case in _load(path)["cases"]
        if "refine-remember" in case.get("tags", [])
        and not (case["expect"].get("params", {}).get("personal_fact") or {}).get("excludes")
    ]
    assert missing == []
