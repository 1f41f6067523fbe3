"""Meaning-preserving rewrites of one message, each deterministic for its random generator.

A transform never changes a protected span: the places where an expectation's needle (a word
the scorer looks for, matched case-insensitively) occurs in the message. Needle occurrences are
found again before every transform, so a chain of transforms protects them throughout; only
`lower` changes their case, which case-insensitive checks do not see.

No library is used: the well-known augmenters (nlpaug, textattack) seed a process-wide
generator, cannot be told which spans to leave alone, and bring dependencies the lean install
does not have; these rules are short enough to test one by one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from random import Random

Transform = Callable[[str, Random, tuple[str, ...]], str]

# Adjacent keys on a QWERTY keyboard: the substitutions a hurried thumb makes.
QWERTY_NEIGHBOURS = {
    "q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf", "t": "ryfg", "y": "tugh", "u": "yihj",
    "i": "uojk", "o": "ipkl", "p": "ol", "a": "qwsz", "s": "awedxz", "d": "serfcx",
    "f": "drtgvc", "g": "ftyhbv", "h": "gyujnb", "j": "huikmn", "k": "jiolm", "l": "kop",
    "z": "asx", "x": "zsdc", "c": "xdfv", "v": "cfgb", "b": "vghn", "n": "bhjm", "m": "njk",
}  # fmt: skip
FILLERS = ("tbh", "lol", "ok so")
LEADING_FILLERS = frozenset({"ok so"})
EMOJI = ("🙂", "😊")
# Two forms of one word: written out and contracted. Only contractions with one reading are
# expanded ("it's" may be "it is" or "it has", so it is only ever produced, never expanded).
CONTRACTIONS = (
    ("i am", "i'm"), ("you are", "you're"), ("we are", "we're"), ("they are", "they're"),
    ("do not", "don't"), ("does not", "doesn't"), ("did not", "didn't"), ("is not", "isn't"),
    ("are not", "aren't"), ("was not", "wasn't"), ("cannot", "can't"), ("will not", "won't"),
    ("i will", "i'll"), ("it is", "it's"), ("that is", "that's"), ("what is", "what's"),
)  # fmt: skip
_ONE_WAY = frozenset({"it's", "that's", "what's"})
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
_ARTICLE = re.compile(r"\b(a|an|the)\b( +)(?=(\w+))", re.IGNORECASE)
# Words after which the article carries meaning: "a few" is not "few", "that's the one" is
# not "that's one".
KEEPS_ARTICLE = frozenset(
    {"few", "little", "lot", "lots", "bit", "couple", "while", "one", "ones", "same", "other",
     "others", "rest", "most", "least"}
)  # fmt: skip
_FINAL_PUNCT = re.compile(r"[.!?…]+\s*$")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_LETTERS = re.compile(r"[^\W\d_]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
# A typo lands on words at least this long, never on the first letter (which people rarely
# miss, and which keeps the word readable); one more typo per this many words.
TYPO_MIN_LETTERS = 4
WORDS_PER_TYPO = 12


def protected_spans(text: str, needles: Iterable[str]) -> list[tuple[int, int]]:
    """Where any needle occurs in the text, case-insensitively, as (start, end) spans."""
    spans: list[tuple[int, int]] = []
    for needle in needles:
        if needle.strip():
            spans += [m.span() for m in re.finditer(re.escape(needle), text, re.IGNORECASE)]
    return sorted(spans)


def _touches(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether changing [start, end) changes a protected span; an insertion (start == end)
    does when it falls inside one."""
    if start == end:
        return any(lo < start < hi for lo, hi in spans)
    return any(start < hi and lo < end for lo, hi in spans)


def _replace(text: str, edits: list[tuple[int, int, str]]) -> str:
    """The text with each (start, end, new) edit applied; edits do not overlap."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _same_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


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
        at_start = bool(_SENTENCE_START.search(text[: match.start()]))
        if (word[0].isupper() and not at_start) or _touches(*match.span(1), spans):
            continue
        if match.group(3).lower() in KEEPS_ARTICLE:
            continue
        edits.append((match.start(), match.end(), ""))
    return _replace(text, edits)


def no_final_punct(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """The message's closing ".", "!", "?" or "…" dropped (a message of punctuation only is
    kept whole)."""
    match = _FINAL_PUNCT.search(text)
    if match is None or not text[: match.start()].strip():
        return text
    if _touches(match.start(), match.end(), protected_spans(text, needles)):
        return text
    return text[: match.start()]


def contractions(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """Written-out forms contracted ("I am" -> "I'm"); when there are none, unambiguous
    contractions written out ("don't" -> "do not")."""
    spans = protected_spans(text, needles)

    def swap(pairs: Iterable[tuple[str, str]]) -> str:
        edits: list[tuple[int, int, str]] = []
        taken: list[tuple[int, int]] = []
        for old, new in pairs:
            pattern = r"\s+".join(re.escape(part).replace("'", "['’]") for part in old.split())
            for match in re.finditer(rf"\b{pattern}\b", text, re.IGNORECASE):
                span = match.span()
                if _touches(*span, spans) or any(_touches(*span, [t]) for t in taken):
                    continue
                taken.append(span)
                edits.append((*span, _same_case(match.group(), new)))
        return _replace(text, edits)

    contracted = swap(CONTRACTIONS)
    if contracted != text:
        return contracted
    return swap((short, long) for long, short in CONTRACTIONS if short not in _ONE_WAY)


def filler(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """A filler: "ok so" leading, or "tbh" / "lol" after the last word (before any closing
    punctuation)."""
    word = rng.choice(FILLERS)
    if word in LEADING_FILLERS:
        return f"{word} {text}"
    match = _FINAL_PUNCT.search(text)
    at = match.start() if match is not None and text[: match.start()].strip() else len(text)
    if _touches(at, at, protected_spans(text, needles)):
        at = len(text)
    body = text[:at].rstrip()
    return f"{body} {word}{text[at:]}"


def typos(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """One letter of a word swapped for a neighbouring key (one more per 12 words), never in
    a protected word, a word shorter than four letters, or a word's first letter."""
    spans = protected_spans(text, needles)
    words = list(_WORD.finditer(text))
    eligible = [
        m
        for m in words
        if len(m.group()) >= TYPO_MIN_LETTERS
        and not _touches(*m.span(), spans)
        and any(ch.lower() in QWERTY_NEIGHBOURS for ch in m.group()[1:])
    ]
    if not eligible:
        return text
    count = min(len(eligible), 1 + len(words) // WORDS_PER_TYPO)
    edits = []
    for match in sorted(rng.sample(eligible, count), key=lambda m: m.start()):
        word = match.group()
        places = [i for i in range(1, len(word)) if word[i].lower() in QWERTY_NEIGHBOURS]
        i = rng.choice(places)
        new = rng.choice(QWERTY_NEIGHBOURS[word[i].lower()])
        new = new.upper() if word[i].isupper() else new
        edits.append((match.start() + i, match.start() + i + 1, new))
    return _replace(text, edits)


def emoji(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """A smiling emoji after the message."""
    return f"{text.rstrip()} {rng.choice(EMOJI)}"


def spelling(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """US spellings made British and British ones American ("favorite" <-> "favourite")."""
    spans = protected_spans(text, needles)
    other = {a: b for a, b in SPELLINGS} | {b: a for a, b in SPELLINGS}
    edits = []
    for match in _LETTERS.finditer(text):  # "Mum's" is spelt as "Mum"
        swapped = other.get(match.group().lower())
        if swapped is not None and not _touches(*match.span(), spans):
            edits.append((*match.span(), _same_case(match.group(), swapped)))
    return _replace(text, edits)


TRANSFORMS: dict[str, Transform] = {
    "lower": lower,
    "no_articles": no_articles,
    "no_final_punct": no_final_punct,
    "contractions": contractions,
    "filler": filler,
    "typos": typos,
    "emoji": emoji,
    "spelling": spelling,
}
