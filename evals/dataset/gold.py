"""Checks of a case's gold readings that need the case around them: the parameters an act's
intent takes, the fields that only an answer to something pending may carry, and whether the
item an act answers can exist at that turn.

An item can exist when its display number is not above what the case could hold by then. For
a conversation: its `memories:` (#1..#k) plus, per earlier message turn, one personal fact for
each act that could hold one (a `remember_about_me` act that is neither a question nor a
rejection; three with multi-fact extraction on; a turn without a gold reading counts as one
such act). Project notes likewise, per project: its seeded `notes:` plus one for each
`add_knowledge` act, `project_only` answer or unread turn in that project. For a classify case:
the operator turns of its `history` (each could have held one) or the largest number its
history names (`#3`, `notes#2`, an `operation_data` number), whichever is more. The bounds err
high: a gold reading is refused only when its item cannot exist.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evals.dataset.conversation import ConversationCase, MessageTurn
from evals.dataset.models import ClassifyCase
from evals.dataset.reading import GoldAct
from pipeline.intents.taxonomy import INTENTS, REQUIRED_PARAMS
from pipeline.reading import Relation

REMEMBER = "remember_about_me"
ADD_NOTE = "add_knowledge"
# multi-fact extraction holds at most this many facts from one message (pipeline/settings.py)
MAX_FACTS_PER_MESSAGE = 3
_NOTE_REF = re.compile(r"notes#([1-9][0-9]{0,8})")
_FACT_REF = re.compile(r"(?<![A-Za-z])#([1-9][0-9]{0,8})")
_ANSWER_ONLY = ("corrected", "chosen", "project_only", "answers")

Problem = tuple[str, str]  # (field, what is wrong)


@dataclass
class _Bounds:
    """How many personal facts, and notes per project, can exist at a turn."""

    facts: int
    notes: Counter[str]


def act_problems(where: str, act: GoldAct) -> list[Problem]:
    """What is wrong with one act on its own: parameters its intent does not take (or needs),
    answer fields without a relation, a profile field on an act that stores no personal
    fact."""
    problems: list[Problem] = []
    allowed = INTENTS[act.intent].params
    for name in act.params:
        if name not in allowed:
            takes = ", ".join(allowed) or "none"
            problems.append(
                (
                    f"{where}.params.{name}",
                    f"{act.intent} takes no parameter {name!r} (it takes: {takes})",
                )
            )
    if act.relation is None:
        # a provider's answer without them is unusable (pipeline/providers/base.py, validated)
        for name in REQUIRED_PARAMS.get(act.intent, ()):
            if not act.params.get(name, "").strip():
                problems.append(
                    (
                        f"{where}.params",
                        f"{act.intent} needs `{name}` unless it answers something pending "
                        "(then set `relation`)",
                    )
                )
        for name in _ANSWER_ONLY:
            if name in act.model_fields_set:
                problems.append(
                    (
                        f"{where}.{name}",
                        f"`{name}` belongs to an act that answers something pending; set "
                        f"`relation` ({', '.join(r.value for r in Relation)})",
                    )
                )
    if act.profile_field is not None and act.intent != REMEMBER:
        problems.append(
            (
                f"{where}.profile_field",
                f"profile_field belongs to {REMEMBER} acts, not {act.intent}",
            )
        )
    return problems


def _answer_problem(where: str, act: GoldAct, bounds: _Bounds, project: str | None) -> str | None:
    item = act.item
    if item is None:
        return None
    number = int(item.rsplit("#", 1)[1])
    if item.startswith("notes#"):
        if project is None:
            return f"answers {item} names a project note, but the turn has no `project`"
        most = bounds.notes[project]
        if number > most:
            return (
                f"answers {item} names no note that can exist: project {project!r} can hold "
                f"at most {most} note(s) by this turn (seeded `notes:` and the acts before)"
            )
        return None
    if number > bounds.facts:
        return (
            f"answers {item} names no personal fact that can exist: the case can hold at most "
            f"{bounds.facts} by this turn (its `memories:` and the facts earlier acts could "
            "hold); name one of those, or seed it in `memories:`"
        )
    return None


def _acts_problems(
    where: str, acts: Sequence[GoldAct], bounds: _Bounds, project: str | None
) -> list[Problem]:
    problems: list[Problem] = []
    for j, act in enumerate(acts):
        at = f"{where}.{j}"
        problems += act_problems(at, act)
        found = _answer_problem(at, act, bounds, project)
        if found is not None:
            problems.append((f"{at}.answers", found))
    return problems


def _holds(acts: Iterable[GoldAct] | None, bounds: _Bounds, project: str | None, per: int) -> None:
    """Add what a turn's acts could have stored to the bounds (a turn read by no gold reading
    counts as one act that could store either)."""
    if acts is None:
        bounds.facts += per
        if project is not None:
            bounds.notes[project] += 1
        return
    for act in acts:
        if act.question or act.relation is Relation.REJECT:
            continue
        if act.intent == REMEMBER:
            bounds.facts += per
        if project is not None and (act.intent == ADD_NOTE or act.project_only):
            bounds.notes[project] += 1


def conversation_problems(case: ConversationCase) -> list[Problem]:
    """Every problem of the gold readings on a conversation's message turns."""
    bounds = _Bounds(len(case.memories), Counter(note.project for note in case.notes))
    per = MAX_FACTS_PER_MESSAGE if case.settings.get("multi_fact_extraction") else 1
    problems: list[Problem] = []
    for index, turn in enumerate(case.turns):
        if not isinstance(turn, MessageTurn):
            continue
        if turn.reading is not None:
            where = f"turns.{index}.message.reading"  # as pydantic names a message turn
            problems += _acts_problems(where, turn.reading, bounds, turn.project)
        _holds(turn.reading, bounds, turn.project, per)
    return problems


def _history_bound(case: ClassifyCase, pattern: re.Pattern[str], key_word: str) -> int:
    said = sum(1 for entry in case.history if entry.operator is not None)
    named = [0]
    for entry in case.history:
        text = entry.content + " " + json.dumps(entry.operation_data)
        named += [int(n) for n in pattern.findall(text)]
        named += [
            value
            for key, value in entry.operation_data.items()
            if key_word in key and isinstance(value, int) and not isinstance(value, bool)
        ]
    return max(said, *named)


def classify_problems(case: ClassifyCase) -> list[Problem]:
    """Every problem of the gold reading of a classify case's message."""
    if case.reading is None:
        return []
    notes: Counter[str] = Counter()
    if case.project is not None:
        notes[case.project] = _history_bound(case, _NOTE_REF, "note")
    bounds = _Bounds(_history_bound(case, _FACT_REF, "number"), notes)
    return _acts_problems("reading", case.reading, bounds, case.project)


def gold_problems(case: object) -> list[Problem]:
    """The gold-reading problems of any case (none for targets without readings)."""
    if isinstance(case, ConversationCase):
        return conversation_problems(case)
    if isinstance(case, ClassifyCase):
        return classify_problems(case)
    return []
