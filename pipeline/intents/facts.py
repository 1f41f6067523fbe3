"""Comparing stated facts: is a statement the same fact again?"""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w']+")


def _words(text: str) -> tuple[str, ...]:
    # Case, punctuation, spacing and the typographic apostrophe are how a fact was typed, not
    # what it says; every word counts, in any language.
    return tuple(w.strip("'") for w in _WORD.findall(text.lower().replace("\u2019", "'")))


def same_fact(a: str, b: str) -> bool:
    """True when two statements have the same words in the same order, whatever their case,
    punctuation and spacing. Facts reach the core in the form memory stores them (the
    second person: the typed reading's `corrected`, a model's parameters, the local
    provider's extraction), so one fact stated twice compares equal; a statement with no
    words is never the same as a fact."""
    words_a = _words(a)
    return bool(words_a) and words_a == _words(b)


def clean_fact(text: str) -> str:
    """A fact as stored: trimmed, single-spaced, without a trailing full stop."""
    cleaned = " ".join(text.split())
    return cleaned[:-1] if cleaned.endswith(".") and not cleaned.endswith("..") else cleaned
