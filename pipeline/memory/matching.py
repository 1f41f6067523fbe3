"""Keyword matching of a forget request against stored assertions (docs/memory.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pipeline.domain import Assertion

STOP_WORDS = frozenset(
    [
        "forget",
        "about",
        "my",
        "that",
        "the",
        "thing",
        "things",
        "stuff",
        "i",
        "me",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "is",
        "was",
        "am",
        "are",
        "you",
        "your",
        "please",
        "stop",
        "remembering",
        "remember",
        "using",
        "know",
        "what",
        "which",
        "one",
        "it",
        "its",
        "this",
        "with",
        "at",
        "be",
        "do",
        "dont",
        "don't",
        "told",
        "said",
        "just",
        "fact",
        "info",
        "information",
        "bit",
        "part",
        "im",
        "i'm",
        "anymore",
        "any",
        "more",
        "again",
        "so",
        "we",
        "our",
        "all",
        # Words about the memory itself, not its content: "put the irrigation note back"
        # must not match every note because each is a "note".
        "note",
        "notes",
        "entry",
        "entries",
        "memory",
        "memories",
        "project",
        "put",
        "back",
        "delete",
        "remove",
        "restore",
        "erase",
        "drop",
        "bring",
        "undo",
        "also",
        "no",
        "instead",
        "actually",
        "can",
        "stop",
        "keeping",
        "need",
        "needs",
    ]
)
_WORD = re.compile(r"[\w']+")
_STEM = 5

MatchAction = Literal["confirm_retraction", "ambiguous", "no_match"]


@dataclass(frozen=True)
class Match:
    """The outcome of matching: an action and the assertions it points at."""

    action: MatchAction
    assertions: tuple[Assertion, ...]


def keywords(description: str) -> set[str]:
    """The description's words that carry meaning."""
    words = {w.strip("'") for w in _WORD.findall(description.lower())}
    return {w for w in words if w and w not in STOP_WORDS}


def word_form(word: str) -> str:
    """What a word is matched by: itself when short, else its first _STEM letters. Two words
    match when their forms are equal — the same word, or two long ones sharing the stem."""
    return word[:_STEM]


@lru_cache(maxsize=65_536)
def _content_forms(content: str) -> frozenset[str]:
    # Recall and forget score every candidate fact on every turn; a fact's text rarely changes.
    return frozenset(word_form(w.strip("'")) for w in _WORD.findall(content.lower()))


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


def match_forget(description: str, candidates: Sequence[Assertion]) -> Match:
    """Exact substring first, then the best keyword score; ties are ambiguous."""
    needle = " ".join(description.lower().split())
    if not needle or not candidates:
        return Match("no_match", ())
    exact = [a for a in candidates if needle in " ".join(a.content.lower().split())]
    if exact:
        return _decide(exact)
    keys = keywords(needle)
    if not keys:
        return Match("no_match", ())
    scored = [(keyword_score(keys, a.content), a) for a in candidates]
    best = max(score for score, _ in scored)
    if best == 0:
        return Match("no_match", ())
    return _decide([a for score, a in scored if score == best])


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def match_loosely(description: str, candidates: Sequence[Assertion]) -> Match:
    """A second try that ignores plural endings ("the vent note" -> "The greenhouse vents
    open at 24 degrees"), taken only when the exact rule found nothing; a unique hit only."""
    keys = {_singular(k) for k in keywords(description)}
    found = [
        a
        for a in candidates
        if keys & {_singular(w.strip("'")) for w in _WORD.findall(a.content.lower())}
    ]
    return Match("confirm_retraction", (found[0],)) if len(found) == 1 else Match("no_match", ())
