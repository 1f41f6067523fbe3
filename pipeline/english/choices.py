"""Which of several offered items a reply keeps, read from its English wording: by position
("the first and third", "all but #2"), by a word only one of them has ("not the cat one"), or
for all ("yes", "none of them"). The local provider turns the answer into a typed reading."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.english.cues import (
    is_affirmation,
    is_first_person_clause,
    is_rejection,
    without_cues,
)
from pipeline.english.lexicon import keywords
from pipeline.memory.matching import keyword_score

_F = re.IGNORECASE
_EXCLUDE = re.compile(
    r"\b(?:except(?: for)?|but not|(?<=all )but|apart from|other than|not|skip|leave out|leave off|"
    r"without|"
    r"minus|drop|don'?t|do not|no to|forget|remove|scratch|lose)\b",
    _F,
)
_ALL = re.compile(r"\b(?:all|both|everything|every one|each|the lot)\b", _F)
_NONE = re.compile(r"\b(?:none|neither|nothing|no to all|not any)\b", _F)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_POSITION = re.compile(r"#?\b([1-5])\b|\b(first|second|third|fourth|fifth|last)\b", _F)
# Words of a selecting reply that say nothing about which fact is meant.
_SELECTING = frozenset(
    re.findall(
        r"\S+",
        """
        yes yeah yep yup sure ok okay please only just keep save remember store note one ones
        them all both everything except but not apart other than skip leave out without drop
        minus first second third fourth fifth last fine good correct right rest thing bit part
        none neither nothing forget remove scratch lose those these that this fact facts about
        go ahead perfect great thanks thank
        """,
    )
)


def _picked(part: str, offered: Sequence[str]) -> set[int]:
    """Indexes (0-based) of the offered facts a part of the reply names."""
    chosen: set[int] = set()
    for digit, word in _POSITION.findall(part):
        position = int(digit) if digit else _ORDINALS.get(word.lower(), len(offered))
        if 1 <= position <= len(offered):
            chosen.add(position - 1)
    keys = keywords(part) - _SELECTING
    for key in keys:
        hits = [i for i, fact in enumerate(offered) if keyword_score({key}, fact)]
        if len(hits) == 1:  # a word two facts share names neither
            chosen.add(hits[0])
    return chosen


def chosen_indexes(message: str, offered: Sequence[str]) -> set[int] | None:
    """Which offered items (0-based) the reply keeps, or None when it does not answer."""
    text = " ".join(message.replace("’", "'").split())
    words = text.split()
    if not words or len(words) > 25 or text.endswith("?"):
        return None  # a question asks something else; the offer stays held
    if len(words) >= 5 and is_first_person_clause(text) and not is_affirmation(text):
        return None  # a new statement about the person, not an answer
    cue = _EXCLUDE.search(text)
    include_part, exclude_part = (text[: cue.start()], text[cue.end() :]) if cue else (text, "")
    included = _picked(include_part, offered)
    excluded = _picked(exclude_part, offered)
    everything = set(range(len(offered)))
    if excluded:
        base = included if included and not _ALL.search(include_part) else everything
        return base - excluded
    if included:
        return included
    if is_rejection(text) or _NONE.search(text):
        return set()
    if is_affirmation(text) or _ALL.search(text):
        return everything
    return None


_NUMBER = re.compile(r"#?\b(\d{1,6})\b")
_PICK_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
_POSITION_WORDS = frozenset([*_PICK_ORDINALS, "latter", "former", "other", "one"])


def pick_one(message: str, items: Sequence[tuple[int, str]]) -> int | None:
    """The display number of the one listed item a reply names: by number ("#2"), position
    ("the second one") or words only one of them has ("the front squat one")."""
    numbers = {number for number, _ in items}
    for found in _NUMBER.findall(message):
        if int(found) in numbers:
            return int(found)
    lowered = message.lower()
    for word, position in _PICK_ORDINALS.items():
        if re.search(rf"\b{word}\b", lowered) and abs(position) <= len(items):
            return items[position if position < 0 else position - 1][0]
    keys = keywords(without_cues(message)) - _POSITION_WORDS
    scored = [(keyword_score(keys, text), number) for number, text in items] if keys else []
    best = max((score for score, _ in scored), default=0)
    chosen = [number for score, number in scored if score == best and best > 0]
    return chosen[0] if len(chosen) == 1 else None
