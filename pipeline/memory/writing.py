"""Writing constraints for memory items a model writes (specification 004, "Writing
Constraints"): every item is checked before it is stored, and the verdict says which rule it
broke, so a suite can count how many items pass on the first try.

Rules, per voice:
- any item: not empty after whitespace is normalized; at most MAX_CHARS (280) characters;
  one or two sentences; self-contained (it does not open with one of the lexicon's
  `pointing_openers`, in English "It", "They", "as mentioned", "the above"); no word of the
  writing model about itself (the lexicon's `self_talk`: "as an AI", "I will remember");
- `second`: a personal fact as the memory block shows it ("You're allergic to shellfish"),
  addressed to the person (a `second_person` word), never in their first person ("I'm
  allergic", a `first_person` word);
- `third`: an insight or narrative about the person ("Ana prefers short replies"), with no
  first- or second-person word.

The words are the conversation's language's, lent by the provider bundle as data
(pipeline/lexicon.py); the core holds none. With `NO_LEXICON` only the language-free rules
apply (empty, length, sentence count): the voice rules need the pronoun words, so a rule
whose words the lexicon does not lend is skipped, not guessed.

`fitted` trims what can be trimmed (spaces, a third sentence, an overlong tail cut at a word
boundary, without a `trailing_joiners` word left dangling at its end) and returns None for
what cannot be saved.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pipeline.lexicon import Lexicon

Voice = Literal["second", "third"]
MAX_CHARS = 280
MAX_SENTENCES = 2
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'“‘(])")


_WORD_BEFORE, _WORD_AFTER = r"(?<!\w)", r"(?!\w)"


def _matcher(
    phrases: Collection[str], before: str = _WORD_BEFORE, after: str = _WORD_AFTER
) -> re.Pattern[str] | None:
    """Any of the phrases, case aside, each word escaped and any spacing between words
    allowed, longest first, between `before` and `after` (by default: as whole words); None
    when there are none, so the rule that reads them is skipped."""
    kept = sorted({" ".join(p.split()) for p in phrases if p.strip()}, key=lambda p: (-len(p), p))
    if not kept:
        return None
    words = "|".join(r"\s+".join(map(re.escape, p.split())) for p in kept)
    return re.compile(rf"{before}(?:{words}){after}", re.IGNORECASE)


@dataclass(frozen=True)
class _Rules:
    """A lexicon's words as the matchers the rules use (None: the lexicon lends none)."""

    pointing: re.Pattern[str] | None
    self_talk: re.Pattern[str] | None
    first_person: re.Pattern[str] | None
    second_person: re.Pattern[str] | None
    trailing: re.Pattern[str] | None


@cache  # a Lexicon is frozen, and a process uses few: each is compiled once
def _rules(lexicon: Lexicon) -> _Rules:
    return _Rules(
        pointing=_matcher(lexicon.pointing_openers, before="^"),
        self_talk=_matcher(lexicon.self_talk),
        first_person=_matcher(lexicon.first_person),
        second_person=_matcher(lexicon.second_person),
        trailing=_matcher(lexicon.trailing_joiners, before=r"\s+", after="$"),
    )


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


def _found(rule: re.Pattern[str] | None, text: str) -> bool:
    return rule is not None and rule.search(text) is not None


def check(
    item: str,
    voice: Voice,
    *,
    lexicon: Lexicon,
    max_chars: int = MAX_CHARS,
    max_sentences: int = MAX_SENTENCES,
) -> Verdict:
    """Which writing rules the item breaks, read with the `lexicon`'s words (a kind of memory
    with bounds of its own, such as a conversation's narrative, passes them)."""
    text = normalized(item)
    if not text:
        return Verdict(text, ("empty",))
    rules = _rules(lexicon)
    problems: list[str] = []
    if len(text) > max_chars:
        problems.append(f"longer than {max_chars} characters ({len(text)})")
    if len(sentences(text)) > max_sentences:
        problems.append(f"more than {max_sentences} sentences")
    if _found(rules.pointing, text):
        problems.append("not self-contained: opens by pointing outside itself")
    if _found(rules.self_talk, text):
        problems.append("speaks as the model")
    first = _found(rules.first_person, text)
    if voice == "second":
        if first:
            problems.append("in the person's first person, not addressed to them")
        elif rules.second_person is not None and not _found(rules.second_person, text):
            problems.append("not addressed to the person (no second-person word)")
    elif first or _found(rules.second_person, text):
        problems.append("not in the third person")
    return Verdict(text, tuple(problems))


def fitted(
    item: str,
    voice: Voice,
    *,
    lexicon: Lexicon,
    max_chars: int = MAX_CHARS,
    max_sentences: int = MAX_SENTENCES,
) -> str | None:
    """The item trimmed to the length and sentence rules when that is all it breaks; None
    when it breaks a rule trimming cannot fix (or is empty)."""
    text = normalized(item)
    kept = sentences(text)[:max_sentences]
    text = " ".join(kept)
    if len(text) > max_chars:
        cut = text[: max_chars - 1].rsplit(" ", 1)[0].rstrip(" ,;:—–-")
        trailing = _rules(lexicon).trailing
        if trailing is not None:
            cut = trailing.sub("", cut)
        text = cut + "…"
    verdict = check(text, voice, lexicon=lexicon, max_chars=max_chars, max_sentences=max_sentences)
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
    item: str,
    voice: Voice,
    *,
    lexicon: Lexicon,
    max_chars: int = MAX_CHARS,
    max_sentences: int = MAX_SENTENCES,
) -> Admitted:
    """Check a new memory item with the `lexicon`'s words; trim it when only length or
    sentence count is wrong."""
    first = check(item, voice, lexicon=lexicon, max_chars=max_chars, max_sentences=max_sentences)
    if first.passed:
        return Admitted(first, first.text)
    trimmed = fitted(item, voice, lexicon=lexicon, max_chars=max_chars, max_sentences=max_sentences)
    return Admitted(first, trimmed)
