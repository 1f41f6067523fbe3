"""The clause of a reply that states a correction: "sorry, I mixed them up: it's sulfa, not
penicillin" -> "sulfa, not penicillin" (pipeline/english/refine.py puts it into the fact)."""

from __future__ import annotations

import re

from pipeline.english.shorthand import read_shorthand
from pipeline.english.surface import FILLER_LEAD, FILLER_TAIL

_F = re.IGNORECASE
_LEAD_MARKERS = re.compile(
    r"^(?:(?:no|nope|nah|not quite|not exactly|not really|close|almost|nearly|actually|well|wait"
    r"|sorry|oops|hmm|correction|i mean|rather|yes|yeah|yep|sure|ok|okay|right|kind of|sort of"
    r"|more like|make (?:that|it)|change (?:that|it) to|it should be|should be|but|oh|and)\b"
    r"[\s,.:;!—–-]*)+",
    _F,
)
_COPULA_LEAD = re.compile(
    r"^(?:it's|it is|its|it was|that's|that is|they're|they are|she's|she is|he's|he is"
    r"|the (?:\w+ )?(?:is|are))\s+",
    _F,
)


def clean(body: str) -> str:
    """The text on one line, without edge punctuation."""
    return " ".join(body.split()).strip(" ,.;:!?—–-")


INTERJECTIONS = re.compile(
    r"^(?:(?:oh|ooh|eh|meh|hmm+|hm|um+|uh|er+m?|ah+|well|so|okay so|ok so|hey|ha+|lol)\b"
    r"[\s,.!—–-]*)+",
    _F,
)
_TRAILING_MARKERS = re.compile(
    r"[\s,]+(?:actually|instead|though|then|really|i think|i guess|sorry|please|thanks)[\s.!]*$", _F
)
_CLAUSE_SPLIT = re.compile(
    # a colon between digits is a time ("7:45"), not a clause break
    r"\s*(?:[—–;]|(?<!\d):|:(?!\d)|\s-\s|[.!?]\s+|,\s+(?=(?:i|i'm|i've|i was|it's|it is|"
    r"it was|that was|sorry|my bad|oops|wrong|typo|with an? \w\b|spelled|spelt|as in)\b))\s*",
    _F,
)
# Clauses that explain the mistake rather than state the correction.
_ASIDE = re.compile(
    r"^with an? \w\b|^(?:spelled|spelt|as in)\b|\b(?:swapped|transposed|misspelled|misspelt)\b|"
    r"\b(?:mixed (?:them|it|those|that|these) up|my (?:bad|mistake)|typo|wrong|misspoke|"
    r"got (?:it|that|them|those) (?:wrong|backwards|mixed up)|i meant to say|slip of the|"
    r"i (?:always )?(?:confuse|forget|mix)|mistake)\b",
    _F,
)


def without_interjections(text: str) -> str:
    """The text without a leading "oh," / "hmm," / "tbh," and a trailing "tbh" / "lol" (its
    closing "?" kept: "any ideas lol?" still asks)."""
    text = " ".join(text.split())
    for _ in range(2):
        text = FILLER_LEAD.sub("", INTERJECTIONS.sub("", text)).strip()
        text = FILLER_TAIL.sub(lambda found: found.group("end").strip(), text).strip()
    return text


def _strip_markers(clause: str) -> str:
    """The clause without its markers, which are read past texting shorthand ("ya but its
    ..." is marked as "yeah but its ..." is); the correction is kept as typed."""
    typed = clean(clause)
    reading = read_shorthand(typed)
    start, end = reading.typed_span(*_marked_span(reading.read))
    return typed[start:end]


def _marked_span(text: str) -> tuple[int, int]:
    trailing = _TRAILING_MARKERS.search(text)
    start, end = 0, trailing.start() if trailing else len(text)
    for _ in range(3):
        lead = _LEAD_MARKERS.match(text[start:end])
        after = start + (lead.end() if lead else 0)
        copula = _COPULA_LEAD.match(text[after:end])
        after += copula.end() if copula else 0
        body = text[after:end]
        new_start = after + len(body) - len(body.lstrip(" ,.;:"))
        new_end = max(new_start, after + len(body.rstrip(" ,.;:")))
        if (new_start, new_end) == (start, end):
            break
        start, end = new_start, new_end
    return start, end


def correction_body(reply: str) -> str:
    """The clause of a reply that states the correction, without "no," / "actually," / "it's".

    "sorry, I mixed them up: it's sulfa, not penicillin" -> "sulfa, not penicillin".
    """
    clauses = [c for c in _CLAUSE_SPLIT.split(clean(without_interjections(reply))) if c.strip()]
    bodies = [_strip_markers(c) for c in clauses]
    for clause, body in zip(clauses, bodies, strict=True):
        if body and not _ASIDE.search(clause):
            return body
    return next((b for b in bodies if b), "")
