"""Keyword matching of a forget request against stored assertions (docs/memory.md).

Which words carry no content is the conversation's language, lent as data (pipeline/lexicon.py):
every function here takes the stop words it skips; this module holds no word of any language.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pipeline.domain import Assertion

_WORD = re.compile(r"[\w']+")
_STEM = 5

MatchAction = Literal["confirm_retraction", "ambiguous", "no_match"]


@dataclass(frozen=True)
class Match:
    """The outcome of matching: an action and the assertions it points at."""

    action: MatchAction
    assertions: tuple[Assertion, ...]


def content_words(text: str, stop_words: Collection[str]) -> set[str]:
    """The text's words that carry meaning: every word but the lent language's stop words
    (pipeline/lexicon.py; none lent, every word counts)."""
    words = {w.strip("'") for w in _WORD.findall(text.lower())}
    return {w for w in words if w and w not in stop_words}


def word_form(word: str) -> str:
    """What a word is matched by: itself when short, else its first _STEM letters. Two words
    match when their forms are equal — the same word, or two long ones sharing the stem."""
    return word[:_STEM]


@lru_cache(maxsize=65_536)
def _content_forms(content: str) -> frozenset[str]:
    # Recall and forget score every candidate fact on every turn; a fact's text rarely changes.
    return frozenset(word_form(w.strip("'")) for w in _WORD.findall(content.lower()))


@lru_cache(maxsize=65_536)
def _words_line(text: str) -> str:
    """The text's words, lower-cased, one space apart: what the substring step compares."""
    return " ".join(_WORD.findall(text.lower()))


def keyword_score(keys: set[str], content: str) -> int:
    """How many distinct keywords match some word of the content."""
    forms = _content_forms(content)
    return sum(1 for k in keys if word_form(k) in forms)


def _decide(found: Sequence[Assertion]) -> Match:
    if not found:
        return Match("no_match", ())
    if len(found) == 1:
        return Match("confirm_retraction", (found[0],))
    return Match("ambiguous", tuple(found))


def match_forget(
    description: str, candidates: Sequence[Assertion], stop_words: Collection[str]
) -> Match:
    """Exact substring first, then the best keyword score; ties are ambiguous. The substring
    is taken over words, so an emoji, a symbol or punctuation around them never hides a
    description the fact holds word for word ("sister Clara 😊")."""
    needle = _words_line(description)
    if not needle or not candidates:
        return Match("no_match", ())
    exact = [a for a in candidates if needle in _words_line(a.content)]
    if exact:
        return _decide(exact)
    keys = content_words(needle, stop_words)
    if not keys:
        return Match("no_match", ())
    scored = [(keyword_score(keys, a.content), a) for a in candidates]
    best = max(score for score, _ in scored)
    if best == 0:
        return Match("no_match", ())
    return _decide([a for score, a in scored if score == best])


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def match_loosely(
    description: str, candidates: Sequence[Assertion], stop_words: Collection[str]
) -> Match:
    """A second try that ignores plural endings ("the vent note" -> "The greenhouse vents
    open at 24 degrees"), taken only when the exact rule found nothing; a unique hit only."""
    keys = {_singular(k) for k in content_words(description, stop_words)}
    found = [
        a
        for a in candidates
        if keys & {_singular(w.strip("'")) for w in _WORD.findall(a.content.lower())}
    ]
    return Match("confirm_retraction", (found[0],)) if len(found) == 1 else Match("no_match", ())
