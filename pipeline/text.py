"""Text that can be stored: valid UTF-8 without NUL bytes, and without invisible characters.

Both arrive from outside: invalid UTF-8 in an argument or on stdin becomes lone surrogates
(Python's surrogateescape), which no encoder accepts, and PostgreSQL refuses NUL in text.
Such text is refused whole rather than repaired, so nothing stored differs from what was said.

Invisible characters are removed instead (`visible`), in one step before anything reads the
text: zero-width spaces, bidirectional controls (which reorder what a terminal shows), the
byte-order mark, soft hyphens and every other format (Cf) or control (Cc) character except
newline and tab. A zero-width joiner or non-joiner between two visible characters is kept: it
joins emoji sequences and shapes Persian and Indic words. Text that is only invisible
characters is refused, as empty text is, so it can never read as an answer to an offer.
"""

from __future__ import annotations

import re
import unicodedata

from pipeline.errors import InvalidMessage

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls other than newline and tab: ESC starts terminal escape sequences (colours,
# cursor moves, window titles) and CR overwrites what was printed; and the bidirectional
# controls, which make a terminal show text in another order than it was stored.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_JOINERS = "\u200c\u200d"
# Letters that render as nothing (Hangul fillers, the blank Braille pattern): kept, but text
# of only these is as empty as text of only spaces.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_KINDS = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me"})


def _removed(char: str) -> bool:
    if char in "\n\t":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


def _shows(char: str) -> bool:
    return unicodedata.category(char) not in _INVISIBLE_KINDS and char not in _BLANK_LETTERS


def visible(text: str) -> str:
    """The text without invisible characters (see the module's docstring); CRLF becomes LF."""
    text = text.replace("\r\n", "\n")
    # printable text has no control or format character (checked in C: every turn's message)
    if text.isprintable() or not any(_removed(c) for c in text):
        return text
    kept: list[str] = []
    for i, char in enumerate(text):
        if not _removed(char):
            kept.append(char)
        elif char in _JOINERS and kept and _shows(kept[-1]):
            following = next((c for c in text[i + 1 :] if not _removed(c)), "")
            if following and _shows(following):
                kept.append(char)
    return "".join(kept)


def text_problem(text: str) -> str | None:
    """What makes the text unstorable, or None when it is fine."""
    if _SURROGATE.search(text):
        return "is not valid UTF-8"
    if "\x00" in text:
        return "contains a NUL character"
    return None


def check_text(text: str, what: str = "the message") -> str:
    """The text with its invisible characters removed, or an InvalidMessage saying why it
    cannot be stored (bad bytes, or nothing visible where something was typed)."""
    problem = text_problem(text)
    if problem:
        raise InvalidMessage(f"{what} {problem}", "send it again as plain UTF-8 text")
    cleaned = visible(text)
    if text.strip() and not any(_shows(c) for c in cleaned):
        raise InvalidMessage(
            f"{what} has only invisible characters (zero-width, direction marks or controls)",
            "type something visible",
        )
    return cleaned


def printable(text: str) -> str:
    """The text safe for a terminal: lone surrogates replaced, control characters and
    direction marks as \\xNN or \\uNNNN."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return _CONTROL.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
