"""Perturbing a case: every operator message rewritten, every expectation kept as it was.

The needles a case's expectations look for are protected in every message of the case (a word
a later turn's memory check needs may be said in turn 1). Needles are the `contains` and
`excludes` words of every text check (parameters, memory and notes text, replies, prompts),
an `erase` turn's text (it must still find the fact a message stored), and, for forget
matching and conversations with seeded memories, the message words that name a stored fact
(its keyword stem, the first five letters, occurs in a seeded content), since the matcher the
suite scores compares those words with the facts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from evals.dataset.cases import Case
from evals.dataset.conversation import ConversationCase, EraseTurn, MessageTurn
from evals.dataset.models import ClassifyCase, ForgetCase, TextCheck
from evals.perturb.spec import Perturbation, needle_safe
from evals.targets import targets_where
from pipeline.config import MAX_MESSAGE_CHARS

# The targets whose cases carry what a person says (their specs' `perturbed`); the others
# (stored memories, long transcripts for summarizers) are not perturbed.
PERTURBED_TARGETS = frozenset(targets_where("perturbed"))
_WORD = re.compile(r"[^\W_]+")
# The forget matcher compares keyword stems of this many letters (docs/memory.md).
STEM = 5
_MIN_KEYWORD = 3


def _text_checks(value: Any) -> Iterator[TextCheck]:
    if isinstance(value, TextCheck):
        yield value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _text_checks(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _text_checks(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _text_checks(item)


def _stored(case: Case) -> list[str]:
    """Contents stored before the case's messages: the facts a forget request names."""
    if isinstance(case, ForgetCase):
        return [m.content for m in case.memories]
    if isinstance(case, ConversationCase):
        return [m.content for m in case.memories] + [n.content for n in case.notes]
    return []


def messages(case: Case) -> list[str]:
    """Every message of the case the operator says, in order (history first)."""
    if isinstance(case, ClassifyCase):
        return [h.operator for h in case.history if h.operator is not None] + [case.message]
    if isinstance(case, ForgetCase):
        return [case.message]
    if isinstance(case, ConversationCase):
        return [t.message for t in case.turns if isinstance(t, MessageTurn)]
    return []


def needles(case: Case) -> tuple[str, ...]:
    """The words and phrases no transform may change in this case's messages."""
    found: list[str] = []
    for check in _text_checks(case):
        found += [*check.contains, *check.excludes]
    if isinstance(case, ConversationCase):
        found += [t.erase for t in case.turns if isinstance(t, EraseTurn)]
    stored = " ".join(_stored(case)).lower()
    if stored:
        for message in messages(case):
            for word in _WORD.findall(message):
                if len(word) >= _MIN_KEYWORD and word.lower()[:STEM] in stored:
                    found.append(word)
    return tuple(dict.fromkeys(n for n in found if n.strip()))


def _rewrite(
    text: str, perturbation: Perturbation, protected: tuple[str, ...], seed: int, where: str
) -> str:
    new = perturbation.apply(text, protected, seed, where)
    if len(new) > MAX_MESSAGE_CHARS or not new.strip() or not needle_safe(text, new, protected):
        return text
    return new


def perturb_case(case: Case, perturbation: Perturbation, seed: int) -> Case | None:
    """The case with every operator message rewritten, or None when no message changed (the
    case is its unperturbed self, so its unperturbed verdict stands)."""
    protected = needles(case)
    changed = False

    def rewrite(text: str, index: int) -> str:
        nonlocal changed
        new = _rewrite(text, perturbation, protected, seed, f"{case.id}|{index}")
        changed = changed or new != text
        return new

    result: Case
    if isinstance(case, ClassifyCase):
        history = []
        for i, entry in enumerate(case.history):
            if entry.operator is not None:
                entry = entry.model_copy(update={"operator": rewrite(entry.operator, i)})
            history.append(entry)
        message = rewrite(case.message, len(case.history))
        result = case.model_copy(update={"history": history, "message": message})
    elif isinstance(case, ForgetCase):
        result = case.model_copy(update={"message": rewrite(case.message, 0)})
    elif isinstance(case, ConversationCase):
        turns = [
            t.model_copy(update={"message": rewrite(t.message, i)})
            if isinstance(t, MessageTurn)
            else t
            for i, t in enumerate(case.turns)
        ]
        result = case.model_copy(update={"turns": turns})
    else:
        return None
    return result if changed else None
