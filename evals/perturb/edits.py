"""The span arithmetic every transform shares: where a message's needles are, whether an edit
touches one, and applying edits."""

from __future__ import annotations

import re
from collections.abc import Iterable

# A word: letters, with inner apostrophes ("don't"); digits and underscores end it.
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
FINAL_PUNCT = re.compile(r"[.!?…]+\s*$")
SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


def protected_spans(text: str, needles: Iterable[str]) -> list[tuple[int, int]]:
    """Where any needle occurs in the text, case-insensitively, as (start, end) spans."""
    spans: list[tuple[int, int]] = []
    for needle in needles:
        if needle.strip():
            spans += [m.span() for m in re.finditer(re.escape(needle), text, re.IGNORECASE)]
    return sorted(spans)


def touches(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether changing [start, end) changes a protected span; an insertion (start == end)
    does when it falls inside one."""
    if start == end:
        return any(lo < start < hi for lo, hi in spans)
    return any(start < hi and lo < end for lo, hi in spans)


def replace(text: str, edits: list[tuple[int, int, str]]) -> str:
    """The text with each (start, end, new) edit applied; edits do not overlap."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def same_case(model: str, word: str) -> str:
    """`word` cased like `model` (all capitals, a capital first, or as it is)."""
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def is_name(text: str, start: int) -> bool:
    """Whether the word at `start` is capitalised inside a sentence: a name, left as typed."""
    return text[start : start + 1].isupper() and not SENTENCE_START.search(text[:start])
