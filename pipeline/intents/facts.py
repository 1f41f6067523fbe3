"""Comparing stated facts: is a reply the same fact again, or a refined one?"""

from __future__ import annotations

import re

from pipeline.memory.matching import STOP_WORDS

_WORD = re.compile(r"[\w']+")
# Framing that changes with who is speaking, not what the fact says.
_FRAMING = frozenset(
    [
        "i",
        "i'm",
        "im",
        "me",
        "my",
        "mine",
        "you",
        "you're",
        "youre",
        "your",
        "yours",
        "am",
        "are",
        "is",
        "that",
        "remember",
        "just",
        "so",
        "know",
        "the",
        "a",
        "an",
        "please",
        "yes",
        "yeah",
        "yep",
        "correct",
        "right",
        "that's",
        "thats",
    ]
)


def fact_words(text: str) -> tuple[str, ...]:
    """The words that carry the fact, in order."""
    return tuple(w for w in _WORD.findall(text.lower()) if w not in _FRAMING)


def same_fact(a: str, b: str) -> bool:
    """True when two statements say the same thing up to framing and point of view."""
    words_a, words_b = fact_words(a), fact_words(b)
    if not words_a or not words_b:
        return True
    return words_a == words_b


def clean_fact(text: str) -> str:
    """A fact as stored: trimmed, single-spaced, without a trailing full stop."""
    cleaned = " ".join(text.split())
    return cleaned[:-1] if cleaned.endswith(".") and not cleaned.endswith("..") else cleaned


def related_facts(a: str, b: str) -> bool:
    """True when two facts share a content word: a refinement restates part of what it corrects.

    "You're allergic to shrimp" refines "You're allergic to all shellfish"; "You live in
    Miami" is a new fact, not a refinement of either.
    """
    return bool((set(fact_words(a)) & set(fact_words(b))) - STOP_WORDS)
