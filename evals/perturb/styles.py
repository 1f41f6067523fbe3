"""Whole-message style rewrites: how the same request reads when texted, dictated, asked
politely or written formally. Each is written from the style's own conventions, not from the
reader's word lists or any training-data generator, and each leaves a message alone where the
rewrite would change what it says:

- `texting` leaves names (a capital inside a sentence), numbers and words with an apostrophe
  as typed, since a shortened name or number is another name or number;
- `voice_transcript` spells out only whole numbers standing alone (not "3:30", "2.5", "4th",
  "07700 900132" or a year, which a transcriber writes in more than one way) and keeps a
  question mark, since a question said without a question word ("you saved that?") is only
  a question by its mark;
- `polite_question` rewrites only a one-sentence command (a first word followed by an object:
  "forget my address"), never a statement, a question or a reply;
- `formal` expands only contractions with one reading ("'s" and "'d" have two, and are kept),
  and no "n't" before its subject ("can't we" is a question, "cannot we" is none).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from random import Random

from num2words import num2words

from evals.perturb.edits import (
    FINAL_PUNCT,
    WORD,
    is_name,
    protected_spans,
    replace,
    same_case,
    touches,
)

_VOWELS = re.compile(r"[aeiou]", re.IGNORECASE)
# Texting: a word this long may lose its inner vowels ("tomorrow" -> "tmrrw"); each one does
# with this chance, so a message keeps some words whole, as people's do.
TEXTING_MIN_LETTERS = 6
TEXTING_SHARE = 0.5
_AMPERSAND = re.compile(r"(?<=\s)and(?=\s)", re.IGNORECASE)
_WITH = re.compile(r"(?<=\s)with(?=\s)", re.IGNORECASE)


def _disemvowelled(word: str) -> str:
    inner = _VOWELS.sub("", word[1:-1])
    return word[0] + inner + word[-1] if len(inner) >= 1 else word


def texting(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """Typed fast on a phone: long words lose their inner vowels ("remember" -> "rmmbr"),
    "and" becomes "&" and "with" "w/", everything lower-case, no closing full stop."""
    spans = protected_spans(text, needles)
    edits = []
    for match in WORD.finditer(text):
        word = match.group()
        if len(word) < TEXTING_MIN_LETTERS or "'" in word or "’" in word:
            continue
        if is_name(text, match.start()) or touches(*match.span(), spans):
            continue
        if rng.random() < TEXTING_SHARE:
            edits.append((*match.span(), _disemvowelled(word)))
    for pattern, short in ((_AMPERSAND, "&"), (_WITH, "w/")):
        for match in pattern.finditer(text):
            if not touches(*match.span(), spans) and not any(
                touches(*match.span(), [(s, e)]) for s, e, _ in edits
            ):
                edits.append((*match.span(), short))
    text = replace(text, edits).lower()
    end = re.search(r"\.+\s*$", text)
    if end is not None and text[: end.start()].strip():
        text = text[: end.start()]
    return text


# Hesitations of speech as verbatim transcripts write them: drawn-out filled pauses opening a
# message, and, between words, those or a discourse marker. The reader's own hesitation
# patterns ("um", "uh", "erm", "hmm") are left out on purpose.
OPENING_PAUSES = ("uhm", "uhh", "mmm")
PAUSES = (*OPENING_PAUSES, "like", "you know")
_SPOKEN_NUMBER = re.compile(r"(?<![\w.,:/$£€#+-])\d{1,3}(?![\w%°]|[.,:/-]\d|\s\d)")
# Punctuation that only separates or closes: dropped where it stands between words.
_SEPARATOR = re.compile(r"(?<=\S)[.,;:!…]+(?=\s|$)|(?<=\s)[-–—](?=\s)|[\"“”()]")


def voice_transcript(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """As a speech transcript writes it: a filled pause first and another between two words,
    standalone whole numbers spelled out ("3" -> "three"), no punctuation but question marks
    and the marks inside a token ("3:30", "dana.k@example.com")."""
    spans = protected_spans(text, needles)
    edits = []
    for match in _SPOKEN_NUMBER.finditer(text):
        if not touches(*match.span(), spans):
            edits.append((*match.span(), num2words(int(match.group())).replace("-", " ")))
    text = replace(text, edits)
    spans = protected_spans(text, needles)
    text = replace(
        text, [(*m.span(), "") for m in _SEPARATOR.finditer(text) if not touches(*m.span(), spans)]
    )
    text = " ".join(text.split())
    gaps = [m.start() for m in re.finditer(r"(?<=\S) (?=\S)", text)]
    spans = protected_spans(text, needles)
    gaps = [g for g in gaps if not touches(g, g, spans) and not touches(g + 1, g + 1, spans)]
    if gaps:
        at = rng.choice(gaps)
        text = f"{text[:at]} {rng.choice(PAUSES)}{text[at:]}"
    return f"{rng.choice(OPENING_PAUSES)} {text}"


# Words that open the object of a command ("forget my address", "tell me", "drop the note"):
# after a first word, they mark a command rather than a statement ("I live", "Tom is").
OBJECT_OPENERS = frozenset(
    {
        "me",
        "my",
        "the",
        "that",
        "this",
        "it",
        "them",
        "him",
        "her",
        "us",
        "our",
        "a",
        "an",
        "all",
        "everything",
        "anything",
    }
)
# Words that join a message to the one before ("and a greyhound called Rufus"): no command.
CONJUNCTIONS = ("and", "but", "or", "nor")
# Nor a preposition ("for this project I'm ...").
PREPOSITIONS = ("for", "from", "with", "about", "in", "on", "at", "by", "after", "before")
# A first word ending so is no verb's plain form ("yes", "whats", "actually").
_NOT_A_COMMAND_VERB = re.compile(r"(?:s|ly)$", re.IGNORECASE)
POLITE_FORMS = (
    "Could you please {}?",
    "Would you mind if I asked you to {}?",
    "Would you be able to {}?",
)
# One clause: "forget it, doesn't matter" asked as a question would ask the wrong thing.
_ONE_CLAUSE = re.compile(r"^[^.!?;,:—–]+[.!]?\s*$")


def polite_question(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """A one-sentence command asked as a polite question ("Forget my address." -> "Could you
    please forget my address?"); any other message as it was."""
    words = text.split()
    if len(words) < 3 or not _ONE_CLAUSE.match(text) or not words[0].isalpha():
        return text
    first = words[0].lower()
    if words[1].lower().strip(",") not in OBJECT_OPENERS or len(first) < 3:
        return text
    if first in CONJUNCTIONS or first in PREPOSITIONS or first in OBJECT_OPENERS:
        return text
    if _NOT_A_COMMAND_VERB.search(first):
        return text
    if words[0][0].isupper() and not FINAL_PUNCT.search(text):
        return text  # "Clara my sister": unpunctuated, a capital may open a name
    forms = [f for f in POLITE_FORMS if "please" not in f or "please" not in text.lower()]
    body = FINAL_PUNCT.sub("", text).strip()
    first = words[0]
    body = (first.lower() if first[1:].islower() or len(first) == 1 else first) + body[len(first) :]
    return rng.choice(forms).format(body)


# Contraction endings with one reading, and the stems whose written-out form differs.
# Not before its subject: "can't we" asks a question that "cannot we" does not.
_NOT = re.compile(r"\b([A-Za-z]+)n['’]t\b(?!\s+(?:i|you|we|they|he|she|it)\b)", re.IGNORECASE)
_IRREGULAR_NOT = {"ca": "can", "wo": "will", "sha": "shall"}
_ENDINGS = re.compile(r"\b([A-Za-z]+)['’](m|re|ve|ll)\b", re.IGNORECASE)
_WRITTEN = {"m": "am", "re": "are", "ve": "have", "ll": "will"}
_LONE_I = re.compile(r"(?<![\w'’])i(?![\w'’])")
_CLAUSE_START = re.compile(r"(^|[.!?]\s+)([a-z])")


def _not_written(found: re.Match[str]) -> str:
    stem = found.group(1)
    full = _IRREGULAR_NOT.get(stem.lower())
    if full is None:
        return f"{stem} not"
    return same_case(stem, "cannot" if full == "can" else f"{full} not")


def formal(text: str, rng: Random, needles: tuple[str, ...]) -> str:
    """Written formally: contractions with one reading expanded ("don't" -> "do not",
    "can't" -> "cannot", "I'm" -> "I am"), "i" and each sentence's first letter capitalised."""
    steps: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
        (_NOT, _not_written),
        (_ENDINGS, lambda m: f"{m.group(1)} {_WRITTEN[m.group(2).lower()]}"),
        (_LONE_I, lambda m: "I"),
        (_CLAUSE_START, lambda m: m.group(1) + m.group(2).upper()),
    )
    for pattern, written in steps:
        spans = protected_spans(text, needles)
        edits = [(*m.span(), written(m)) for m in pattern.finditer(text)]
        text = replace(text, [e for e in edits if not touches(e[0], e[1], spans)])
    return text
