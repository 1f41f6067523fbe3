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
    """True when one fact plausibly corrects the other.

    Either they share a content word ("You're allergic to shrimp" refines "You're allergic
    to all shellfish"), or they have the same shape with at most half the words changed
    ("You're 43" refines "You're 42"). "You live in Miami" is a new fact, not a refinement
    of either.
    """
    if (set(fact_words(a)) & set(fact_words(b))) - STOP_WORDS:
        return True
    words_a, words_b = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    if len(words_a) != len(words_b) or not words_a:
        return False
    changed = sum(1 for x, y in zip(words_a, words_b, strict=True) if x != y)
    return changed * 2 <= len(words_a)


# Words that ask to remember without saying what ("yeah, remember that in general").
_ABOUT_REMEMBERING = frozenset(
    re.findall(
        r"\S+",
        """
        yeah yes yep sure ok okay please thanks in general generally everywhere too also as well
        it this for across all projects project keep save store note do go ahead always from
        now on and of course good idea
        """,
    )
)


def says_something(fact: str) -> bool:
    """Whether a fact carries content beyond asking to remember ("remember that" alone does
    not, and must not be stored as if it were the fact)."""
    return any(w not in _ABOUT_REMEMBERING for w in fact_words(fact))
