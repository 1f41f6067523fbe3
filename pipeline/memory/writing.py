"""Writing constraints for memory items a model writes (specification 004, "Writing
Constraints"): every item is checked before it is stored, and the verdict says which rule it
broke, so a suite can count how many items pass on the first try.

Rules, per voice:
- any item: not empty after whitespace is normalized; at most MAX_CHARS (280) characters;
  one or two sentences; self-contained (it does not open by pointing at something outside it:
  "It", "That", "This", "He", "They", "as mentioned", "the above"); no word of the writing
  model about itself ("as an AI", "I will remember");
- `second`: a personal fact as the memory block shows it ("You're allergic to shellfish"),
  addressed to the person, never in their first person ("I'm allergic");
- `third`: an insight or narrative about the person ("Ana prefers short replies"), with no
  first- or second-person pronoun.

`fitted` trims what can be trimmed (spaces, a third sentence, an overlong tail cut at a word
boundary with no dangling clause) and returns None for what cannot be saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Voice = Literal["second", "third"]
MAX_CHARS = 280
MAX_SENTENCES = 2
_F = re.IGNORECASE
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'“‘(])")
_DANGLING_START = re.compile(
    r"^(?:it|that|this|these|those|he|she|they|him|her|them|his|hers|their|there)\b(?!'s own)|"
    r"^(?:as (?:mentioned|said|noted|discussed)|the above|see above|same as)\b",
    _F,
)
_SELF_TALK = re.compile(
    r"\b(?:as an ai|as a language model|i(?:'ll| will) (?:remember|note|keep)|"
    r"i(?:'ve| have) noted|the assistant|this assistant|the ai)\b",
    _F,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b", _F)
_SECOND_PERSON = re.compile(r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b", _F)


@dataclass(frozen=True)
class Verdict:
    """An item as normalized, and the rules it broke (empty when it passes)."""

    text: str
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """Whether the item breaks no rule."""
        return not self.problems


def normalized(text: str) -> str:
    """Whitespace collapsed, quotes and list markers around the item removed."""
    text = " ".join(text.split())
    text = re.sub(r"^(?:[-*•]|\d+[.)])\s+", "", text)
    return text.strip(" \"'“”‘’")


def sentences(text: str) -> list[str]:
    """The item's sentences (split after . ! ? before a capital)."""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def check(
    item: str, voice: Voice, *, max_chars: int = MAX_CHARS, max_sentences: int = MAX_SENTENCES
) -> Verdict:
    """Which writing rules the item breaks (a kind of memory with bounds of its own, such as a
    conversation's narrative, passes them)."""
    text = normalized(item)
    if not text:
        return Verdict(text, ("empty",))
    problems: list[str] = []
    if len(text) > max_chars:
        problems.append(f"longer than {max_chars} characters ({len(text)})")
    if len(sentences(text)) > max_sentences:
        problems.append(f"more than {max_sentences} sentences")
    if _DANGLING_START.search(text):
        problems.append("not self-contained: opens by pointing outside itself")
    if _SELF_TALK.search(text):
        problems.append("speaks as the model")
    if voice == "second":
        if _FIRST_PERSON.search(text):
            problems.append("in the person's first person, not addressed to them")
        elif not _SECOND_PERSON.search(text):
            problems.append("not addressed to the person (no 'you'/'your')")
    elif _FIRST_PERSON.search(text) or _SECOND_PERSON.search(text):
        problems.append("not in the third person")
    return Verdict(text, tuple(problems))


def fitted(
    item: str, voice: Voice, *, max_chars: int = MAX_CHARS, max_sentences: int = MAX_SENTENCES
) -> str | None:
    """The item trimmed to the length and sentence rules when that is all it breaks; None
    when it breaks a rule trimming cannot fix (or is empty)."""
    text = normalized(item)
    kept = sentences(text)[:max_sentences]
    text = " ".join(kept)
    if len(text) > max_chars:
        cut = text[: max_chars - 1].rsplit(" ", 1)[0].rstrip(" ,;:—–-")
        cut = re.sub(r"\s+(?:and|or|but|so|because|which|that|with|to|of)$", "", cut, flags=_F)
        text = cut + "…"
    verdict = check(text, voice, max_chars=max_chars, max_sentences=max_sentences)
    return verdict.text if verdict.passed else None


@dataclass(frozen=True)
class Admitted:
    """The verdict on an item as a model or summarizer wrote it, and what is stored: the item
    itself when it passed, its trimmed form when trimming saved it, None when it is rejected."""

    first: Verdict
    text: str | None

    @property
    def first_pass(self) -> bool:
        """Whether the item passed every rule as written (the specification's measure)."""
        return self.first.passed


def admit(
    item: str, voice: Voice, *, max_chars: int = MAX_CHARS, max_sentences: int = MAX_SENTENCES
) -> Admitted:
    """Check a new memory item; trim it when only length or sentence count is wrong."""
    bounds = {"max_chars": max_chars, "max_sentences": max_sentences}
    first = check(item, voice, **bounds)
    if first.passed:
        return Admitted(first, first.text)
    return Admitted(first, fitted(item, voice, **bounds))
