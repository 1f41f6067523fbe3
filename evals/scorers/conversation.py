"""Scoring a conversation: each turn's expectations against the transcript it left.

Every check carries its turn, so a report can mark the failed expectation on the turn it
belongs to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from evals.dataset.conversation import (
    EraseTurn,
    FactCheck,
    MemoryExpect,
    MessageTurn,
    StatusCheck,
    TurnExpect,
)
from evals.scorers.base import Check, Score, Scorer, text_checks
from evals.scorers.matching import max_matching
from pipeline.english import ENGLISH
from pipeline.memory.status import topic_key

LIVE = ("held", "committed")


def _accepts(entry: FactCheck, fact: dict[str, Any]) -> bool:
    state = fact["state"]
    if (entry.state is None and state not in LIVE) or (
        entry.state is not None and state != entry.state.value
    ):
        return False
    text = str(fact["content"]).casefold()
    return all(n.casefold() in text for n in entry.text.contains) and not any(
        n.casefold() in text for n in entry.text.excludes
    )


def describe_entry(entry: FactCheck) -> str:
    """An expected fact in words: 'a held fact with [lila, six] and without [five]'."""
    state = entry.state.value if entry.state is not None else "held or committed"
    text = f"a {state} fact"
    if entry.text.contains:
        text += f" with [{', '.join(entry.text.contains)}]"
    if entry.text.excludes:
        text += f" without [{', '.join(entry.text.excludes)}]"
    return text


def describe_fact(fact: dict[str, Any]) -> str:
    """A stored fact in a line: '#2 held: Lila is six'."""
    return f"#{fact['number']} {fact['state']}: {fact['content']}"


def fact_checks(
    turn: int, what: str, entries: Sequence[FactCheck], facts: list[dict[str, Any]], only: bool
) -> list[Check]:
    """Each entry against a distinct fact (a maximum matching); with `only`, no other live fact."""
    candidates = [[j for j, fact in enumerate(facts) if _accepts(e, fact)] for e in entries]
    matched = max_matching(candidates)
    checks: list[Check] = []
    for i, entry in enumerate(entries):
        want = describe_entry(entry)
        expected = entry.model_dump(mode="json", exclude_defaults=True)
        name = f"{what}[{i + 1}]"
        if i in matched:
            got = describe_fact(facts[matched[i]])
            checks.append(Check(name, expected, got, True, turn=turn))
        elif not candidates[i]:
            why = f"turn {turn}: {what} has no {want.removeprefix('a ')}"
            checks.append(Check(name, expected, None, False, why, turn))
        else:
            taken = ", ".join(f"#{facts[j]['number']}" for j in candidates[i])
            why = f"turn {turn}: {what} has {want} only in {taken}, each matched by another entry"
            checks.append(Check(name, expected, None, False, why, turn))
    if only:
        used = set(matched.values())
        extra = [
            describe_fact(f) for j, f in enumerate(facts) if f["state"] in LIVE and j not in used
        ]
        why = f"turn {turn}: {what} also holds {'; '.join(extra)}" if extra else ""
        checks.append(Check(f"{what}_only", True, extra, not extra, why, turn))
    return checks


def _topic(topic: str) -> str:
    # the store keys a topic with the lexicon's openers; the suites are English
    return topic_key(topic, ENGLISH.topic_openers)


def status_checks(
    turn: int, entries: Sequence[StatusCheck], notes: list[dict[str, Any]]
) -> list[Check]:
    """Each expected status note against the current note of its topic (topics compared as
    the store keys them: "My car" is "car")."""
    current = {_topic(str(n["topic"])): str(n["text"]) for n in notes}
    checks: list[Check] = []
    for i, entry in enumerate(entries):
        key = _topic(entry.topic)
        expected = entry.model_dump(mode="json", exclude_defaults=True)
        text = current.get(key)
        name = f"status[{i + 1}]"
        if text is None:
            held = ", ".join(sorted(current)) or "none"
            why = f"turn {turn}: no current status note on {key!r} (topics: {held})"
            checks.append(Check(name, expected, None, False, why, turn))
            continue
        folded = text.casefold()
        lacks = [n for n in entry.text.contains if n.casefold() not in folded]
        has = [n for n in entry.text.excludes if n.casefold() in folded]
        ok = not lacks and not has
        why = (
            ""
            if ok
            else f"turn {turn}: status {key!r} {text!r}"
            + (f" lacks {lacks}" if lacks else "")
            + (f" has {has}" if has else "")
        )
        checks.append(Check(name, expected, f"{key}: {text}", ok, why, turn))
    return checks


def _equal(turn: int, name: str, want: str | None, got: Any) -> list[Check]:
    if want is None:
        return []
    ok = got == want
    why = "" if ok else f"turn {turn}: {name} {got}, expected {want}"
    return [Check(name, want, got, ok, why, turn)]


def _message_checks(turn: int, expect: TurnExpect, record: dict[str, Any]) -> list[Check]:
    checks = _equal(turn, "intent", expect.intent, record.get("intent"))
    checks += _equal(turn, "action", expect.action, record.get("action"))
    for name, check in (("reply", expect.reply), ("prompt", expect.prompt)):
        if check is not None:
            checks += [
                replace(c, turn=turn, why=f"turn {turn}: {c.why}" if c.why else "")
                for c in text_checks(name, record.get(name), check.contains, check.excludes)
            ]
    if expect.notes is not None:
        checks += fact_checks(turn, "notes", expect.notes, record.get("notes") or [], False)
    if expect.status is not None:
        checks += status_checks(turn, expect.status, record.get("status") or [])
    return checks


def turn_checks(turn: int, expect: MemoryExpect, record: dict[str, Any] | None) -> list[Check]:
    """Every check of one turn's expectations against what the turn left."""
    if record is None:
        return [Check("ran", True, False, False, f"turn {turn} did not run", turn)]
    if record.get("error"):
        why = f"turn {turn}: errored, so its expectations were not checked"
        return [Check("ran", True, False, False, why, turn)]
    checks: list[Check] = []
    if isinstance(expect, TurnExpect):
        checks += _message_checks(turn, expect, record)
    if expect.memory is not None or expect.memory_only:
        entries = expect.memory or []
        checks += fact_checks(turn, "memory", entries, record["memory"], expect.memory_only)
    return checks


def _score(expect: Sequence[MessageTurn | EraseTurn], got: dict[str, Any]) -> Score:
    records = {int(r["turn"]): r for r in got.get("turns") or []}
    checks: list[Check] = []
    expected: list[dict[str, Any]] = []
    for index, turn in enumerate(expect, start=1):
        if turn.expect is None:
            continue
        expected.append(
            {"turn": index, **turn.expect.model_dump(mode="json", exclude_defaults=True)}
        )
        checks += turn_checks(index, turn.expect, records.get(index))
    return Score(
        scorer=CONVERSATION.name,
        version=CONVERSATION.version,
        expected=expected,
        got=got,
        checks=tuple(checks),
    )


CONVERSATION = Scorer("conversation_memory", 1, _score)
