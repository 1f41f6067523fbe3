"""Text that can be stored: valid UTF-8 without NUL bytes.

Both arrive from outside: invalid UTF-8 in an argument or on stdin becomes lone surrogates
(Python's surrogateescape), which no encoder accepts, and PostgreSQL refuses NUL in text.
Such text is refused whole rather than repaired, so nothing stored differs from what was said.
"""

from __future__ import annotations

import re

from pipeline.errors import InvalidMessage

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls other than newline and tab: ESC starts terminal escape sequences (colours,
# cursor moves, window titles) and CR overwrites what was printed.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def text_problem(text: str) -> str | None:
    """What makes the text unstorable, or None when it is fine."""
    if _SURROGATE.search(text):
        return "is not valid UTF-8"
    if "\x00" in text:
        return "contains a NUL character"
    return None


def check_text(text: str, what: str = "the message") -> str:
    """The text, or an InvalidMessage saying why it cannot be stored."""
    problem = text_problem(text)
    if problem:
        raise InvalidMessage(f"{what} {problem}", "send it again as plain UTF-8 text")
    return text


def printable(text: str) -> str:
    """The text safe for a terminal: lone surrogates replaced, control characters as \\xNN."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
