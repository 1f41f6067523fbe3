"""The person's own words retold in the third person, for the deterministic narrative.

The fallback narrative is built from clauses the person wrote ("lay it myself", "email me the
date once I confirm"); a narrative is a memory about the person, so their first person
becomes the singular "they", whose verb forms match the first person's ("I confirm" ->
"they confirm", "I'm" -> "they're"), and "you" (the person speaking to the companion) becomes
"the companion". Only "I am"/"I was" need their verb changed.
"""

from __future__ import annotations

import re

_SWAPS: tuple[tuple[str, str], ...] = (
    (r"i am", "they are"),
    (r"i was", "they were"),
    (r"i'm", "they're"),
    (r"i've", "they've"),
    (r"i'd", "they'd"),
    (r"i'll", "they'll"),
    (r"myself", "themselves"),
    (r"mine", "theirs"),
    (r"my", "their"),
    (r"me", "them"),
    (r"i", "they"),
    (r"yourself", "itself"),
    (r"you're", "the companion is"),
    (r"you've", "the companion has"),
    (r"you'll", "the companion will"),
    (r"you'd", "the companion would"),
    (r"yours", "the companion's"),
    (r"your", "the companion's"),
    (r"you", "the companion"),
)
_PATTERN = re.compile(
    r"\b(" + "|".join(word for word, _ in _SWAPS) + r")\b(?!'|\.\w)", re.IGNORECASE
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)$")
_BY_WORD = {word.replace("\\", ""): said for word, said in _SWAPS}


def third_person(text: str) -> str:
    """The text with the speaker's first person as "they" and "you" as "the companion"."""
    text = text.replace("’", "'")

    def swap(match: re.Match[str]) -> str:
        said = _BY_WORD[match.group(0).casefold()]
        starts = _SENTENCE_START.search(text[: match.start()]) is not None
        capital = starts or (match.group(0)[0].isupper() and match.group(0)[0] != "I")
        return said[0].upper() + said[1:] if capital else said

    return _PATTERN.sub(swap, text)
