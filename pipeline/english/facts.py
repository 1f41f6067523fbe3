"""Comparing English statements of a fact, framing and point of view aside, for the English
rules (the sentence splitter, the local provider's extraction) and the labelled deterministic
fallback that splits sentences. The core compares facts without reading words
(pipeline/intents/facts.py)."""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w']+")
# Framing that changes with who is speaking, not what the fact says.
_FRAMING = frozenset(
    re.findall(
        r"\S+",
        """
        i i'm im me my mine you you're youre your yours am are is that remember just so know
        the a an please yes yeah yep correct right that's thats
        """,
    )
)
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


def fact_words(text: str) -> tuple[str, ...]:
    """The words that carry the fact, in order."""
    return tuple(w for w in _WORD.findall(text.lower()) if w not in _FRAMING)


def same_statement(a: str, b: str) -> bool:
    """True when two English statements say the same thing up to framing and point of view
    ("I'm vegetarian" and "You're vegetarian"); a statement of framing alone matches any."""
    words_a, words_b = fact_words(a), fact_words(b)
    if not words_a or not words_b:
        return True
    return words_a == words_b


def says_something(fact: str) -> bool:
    """Whether a fact carries content beyond asking to remember ("remember that" alone does
    not, and must not be stored as if it were the fact)."""
    return any(w not in _ABOUT_REMEMBERING for w in fact_words(fact))
