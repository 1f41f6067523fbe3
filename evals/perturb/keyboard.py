"""A typing-slip model built from the geometry of a QWERTY keyboard, not from any table the
reader keeps.

Keys sit on three rows with the usual stagger (the home row a quarter key right of the top
row, the bottom row three quarters); two keys are neighbours when their centres are at most
`REACH` key widths apart, which gives each letter the keys around it (for "s": a, d, w, e, z,
x). A slip is one of five letter-level operations that studies of typing errors name:
a neighbouring key struck instead (substitution), a neighbouring key struck as well
(insertion), a letter missed (drop), a key struck twice (double) and two letters swapped
(transposition). The reader undoes only the first and the last of them, and only where the
word keeps its length, so most of these slips are new to it.
"""

from __future__ import annotations

import math
from functools import cache
from random import Random

ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
STAGGER = (0.0, 0.25, 0.75)  # each row's left edge, in key widths from the top row's
REACH = 1.3  # centre-to-centre distance, in key widths, of keys a finger slips between
OPERATIONS = ("neighbour", "insert", "drop", "double", "swap")


def _centre(letter: str) -> tuple[float, float]:
    for row, keys in enumerate(ROWS):
        if letter in keys:
            return STAGGER[row] + keys.index(letter), float(row)
    raise ValueError(f"{letter!r} is not a letter key")


@cache
def neighbours(letter: str) -> str:
    """The letter keys within reach of `letter`'s key, in keyboard order ("" for a non-letter)."""
    letter = letter.lower()
    if not any(letter in keys for keys in ROWS) or len(letter) != 1:
        return ""
    x, y = _centre(letter)
    near = []
    for keys in ROWS:
        for key in keys:
            kx, ky = _centre(key)
            if key != letter and math.hypot(kx - x, ky - y) <= REACH:
                near.append(key)
    return "".join(near)


def _cased(key: str, like: str) -> str:
    return key.upper() if like.isupper() else key


def slip(word: str, rng: Random) -> str:
    """The word with one slip at a letter past the first (people rarely miss a word's first
    letter, and keeping it keeps the word findable); the word itself when no slip fits."""
    places = [i for i in range(1, len(word)) if neighbours(word[i])]
    if not places:
        return word
    i = rng.choice(places)
    letter = word[i]
    operation = rng.choice(OPERATIONS)
    if operation == "swap" and i + 1 < len(word) and word[i + 1].lower() != letter.lower():
        return word[:i] + word[i + 1] + letter + word[i + 2 :]
    if operation == "drop" and len(word) > 3:
        return word[:i] + word[i + 1 :]
    if operation == "double":
        return word[:i] + letter + word[i:]
    key = _cased(rng.choice(neighbours(letter)), letter)
    if operation == "insert":
        return word[: i + 1] + key + word[i + 1 :]
    return word[:i] + key + word[i + 1 :]  # neighbour, and the fallback of a swap or drop
