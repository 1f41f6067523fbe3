"""Keyboard slips read past: "what sirts of things can you handle" is read as "sorts".

A token that is not a word of the vocabulary (the local model's, ranked by how common each
word is) and is one slip away from words of it — one letter replaced by a neighbouring key,
never the first, or two neighbours swapped — is read as the most common of them. This is for
reading only (which intent, which cue, what to look up or forget); text stored as a fact keeps
what the person typed, since a name the vocabulary lacks must never become a word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pipeline.english.surface import CONTRACTIONS, NEIGHBOURS, SENTENCE_START

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’]*")
SHORTEST = 4  # a slip in "teh" or "ot" has too many readings to pick one


def slips(token: str) -> set[str]:
    """Every string one slip away from a lower-case token (its first letter kept)."""
    found: set[str] = set()
    for i in range(1, len(token)):
        for key in NEIGHBOURS.get(token[i], ""):
            found.add(token[:i] + key + token[i + 1 :])
        if i + 1 < len(token) and token[i] != token[i + 1]:
            found.add(token[:i] + token[i + 1] + token[i] + token[i + 2 :])
    return found


class Vocabulary:
    """Known lower-case words and their ranks (lower is more common), with the reading of
    each slipped token remembered."""

    def __init__(self, ranks: Mapping[str, int]) -> None:
        self.ranks = dict(ranks)
        for word in CONTRACTIONS:  # as common as the commonest words
            self.ranks.setdefault(word, 0)
        self._read: dict[str, str | None] = {}

    def __contains__(self, word: object) -> bool:
        return word in self.ranks

    def best(self, token: str) -> str | None:
        """The commonest known word one slip from `token`, or None."""
        if token not in self._read:
            found = [w for w in slips(token) if w in self.ranks]
            self._read[token] = min(found, key=lambda w: (self.ranks[w], w)) if found else None
        return self._read[token]


# Endings after which a stem may have lost its "e" or doubled its consonant ("taking",
# "repotting"); after the others the stem is whole ("flares", "boxes", "quickly", "flared").
_OPEN_SUFFIXES = ("ing", "ers", "est", "ed", "er")
_WHOLE_SUFFIXES = ("es", "ly", "s")
_PREFIXES = ("un", "re")


def is_inflected(token: str, vocabulary: Vocabulary) -> bool:
    """Whether a token the vocabulary lacks is a form of a word it has ("flares", "repotting",
    "unlacking"): the WordPiece vocabulary keeps many words only as a stem."""
    if any(token.startswith(p) and token[len(p) :] in vocabulary for p in _PREFIXES):
        return True
    if token.endswith("d") and token[:-1].endswith("e") and token[:-1] in vocabulary:
        return True  # "flared"; "onlind" is no form of "online"
    for suffix in (*_OPEN_SUFFIXES, *_WHOLE_SUFFIXES):
        stem = token[: -len(suffix)]
        if not token.endswith(suffix) or len(stem) < 3:
            continue
        if stem in vocabulary or (stem.endswith("i") and stem[:-1] + "y" in vocabulary):
            return True  # "worries", "worried"
        if suffix in _OPEN_SUFFIXES and (
            stem + "e" in vocabulary or (stem[-1] == stem[-2] and stem[:-1] in vocabulary)
        ):
            return True
    return False


def spelled(text: str, vocabulary: Vocabulary) -> str:
    """The text with each slipped word read as the commonest word it is one slip from.

    Known words and their forms, short tokens and a capitalised word inside a sentence (a name)
    are kept as typed. A slip is put right in place, so the text keeps its length and every offset.
    """

    def read(found: re.Match[str]) -> str:
        token = found.group(0)
        lowered = token.lower().replace("’", "'")
        if len(lowered) < SHORTEST or lowered in vocabulary:
            return token
        if lowered.replace("'", "") in vocabulary or is_inflected(lowered, vocabulary):
            return token
        if token[0].isupper() and not SENTENCE_START.search(text[: found.start()]):
            return token
        best = vocabulary.best(lowered)
        if best is None:
            return token
        return best[:1].upper() + best[1:] if token[0].isupper() else best

    return _TOKEN.sub(read, text)
