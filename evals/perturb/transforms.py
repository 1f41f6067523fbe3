"""Meaning-preserving rewrites of one message, each deterministic for its random generator.

A transform never changes a protected span: the places where an expectation's needle (a word
the scorer looks for, matched case-insensitively) occurs in the message. Needle occurrences are
found again before every transform, so a chain of transforms protects them throughout.

Nothing here comes from the reader (pipeline/): not its filler, emoji, shorthand or cue word
lists, and not its keyboard table. The typo model is built from a keyboard's geometry
(evals/perturb/keyboard.py), the style rewrites from each style's own conventions
(evals/perturb/styles.py), and tests/evals/test_perturb_independent.py fails if a word list
here overlaps one of the reader's. So a figure under these transforms measures how the reader
copes with text written by someone else's rules, not how well it undoes its own.

No augmentation library is used: the well-known ones (nlpaug, textattack) seed a process-wide
generator, cannot be told which spans to leave alone, and bring dependencies the lean install
does not have; these rules are short enough to test one by one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from random import Random

from evals.perturb.edits import (
    FINAL_PUNCT,
    SENTENCE_START,
    WORD,
    protected_spans,
    replace,
    same_case,
    touches,
)
from evals.perturb.keyboard import neighbours, slip
from evals.perturb.styles import formal, polite_question, texting, voice_transcript

Transform = Callable[[str, Random, tuple[str, ...]], str]

__all__ = ["TRANSFORMS", "Transform", "protected_spans"]

_ARTICLE = re.compile(r"\b(a|an|the)\b( +)(?=(\w+))", re.IGNORECASE)
# Words after which the article carries meaning: "a few" is not "few", "that's the one" is
# not "that's one".
KEEPS_ARTICLE = frozenset(
    {"few", "little", "lot", "lots", "bit", "couple", "while", "one", "ones", "same", "other",
     "others", "rest", "most", "least"}
)  # fmt: skip
# A typo lands on words at least this long (a slip in "teh" leaves too little to read); one
# more typo per this many words.
TYPO_MIN_LETTERS = 4
WORDS_PER_TYPO = 10
# Text emoticons, as typed before emoji keyboards (the Western, sideways faces and the
# upright Japanese kaomoji); none is a pictograph.
EMOTICONS = (":-)", ";-)", ":-D", "xD", "^_^", "<3", "=)")


def lower(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """Every letter lower-cased, as people type on a phone (needles match case-insensitively)."""
    return text.lower()


def no_articles(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """ "a", "an" and "the" dropped before a word, except where they carry meaning ("a few");
    a capitalised one only at a sentence start, so "plan A is" keeps its letter."""
    spans = protected_spans(text, needles)
    edits = []
    for match in _ARTICLE.finditer(text):
        word = match.group(1)
        at_start = bool(SENTENCE_START.search(text[: match.start()]))
        if (word[0].isupper() and not at_start) or touches(*match.span(1), spans):
            continue
        if match.group(3).lower() in KEEPS_ARTICLE:
            continue
        edits.append((match.start(), match.end(), ""))
    return replace(text, edits)


def no_final_punct(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """The message's closing ".", "!", "?" or "…" dropped (a message of punctuation only is
    kept whole)."""
    match = FINAL_PUNCT.search(text)
    if match is None or not text[: match.start()].strip():
        return text
    if touches(match.start(), match.end(), protected_spans(text, needles)):
        return text
    return text[: match.start()]


def keyboard_typos(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """One typing slip (a neighbouring key struck instead or as well, a letter dropped or
    doubled, two letters swapped) in a word of four letters or more, one more per ten words;
    never in a protected word or a word's first letter."""
    spans = protected_spans(text, needles)
    words = list(WORD.finditer(text))
    eligible = [
        m
        for m in words
        if len(m.group()) >= TYPO_MIN_LETTERS
        and not touches(*m.span(), spans)
        and any(neighbours(ch) for ch in m.group()[1:])
    ]
    if not eligible:
        return text
    count = min(len(eligible), 1 + len(words) // WORDS_PER_TYPO)
    chosen = sorted(rng.sample(eligible, count), key=lambda m: m.start())
    return replace(text, [(*m.span(), slip(m.group(), rng)) for m in chosen])


def emoticons(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """A text emoticon after the message (":-)", "^_^", "<3", ...)."""
    return f"{text.rstrip()} {rng.choice(EMOTICONS)}"


# US and British spellings of the same word; a word in either column becomes the other.
SPELLINGS = (
    ("color", "colour"), ("favorite", "favourite"), ("neighbor", "neighbour"),
    ("organize", "organise"), ("organized", "organised"), ("realize", "realise"),
    ("apologize", "apologise"), ("center", "centre"), ("theater", "theatre"),
    ("traveling", "travelling"), ("gray", "grey"), ("mom", "mum"), ("flavor", "flavour"),
    ("honor", "honour"), ("behavior", "behaviour"), ("canceled", "cancelled"),
    ("jewelry", "jewellery"), ("pajamas", "pyjamas"),
    ("defense", "defence"), ("analyze", "analyse"), ("catalog", "catalogue"),
)  # fmt: skip
_LETTERS = re.compile(r"[^\W\d_]+")


def spelling(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """US spellings made British and British ones American ("favorite" <-> "favourite")."""
    spans = protected_spans(text, needles)
    other = {a: b for a, b in SPELLINGS} | {b: a for a, b in SPELLINGS}
    edits = []
    for match in _LETTERS.finditer(text):  # "Mum's" is spelt as "Mum"
        swapped = other.get(match.group().lower())
        if swapped is not None and not touches(*match.span(), spans):
            edits.append((*match.span(), same_case(match.group(), swapped)))
    return replace(text, edits)


TRANSFORMS: dict[str, Transform] = {
    "lower": lower,
    "no_articles": no_articles,
    "no_final_punct": no_final_punct,
    "keyboard_typos": keyboard_typos,
    "emoticons": emoticons,
    "spelling": spelling,
    "texting": texting,
    "voice_transcript": voice_transcript,
    "polite_question": polite_question,
    "formal": formal,
}
