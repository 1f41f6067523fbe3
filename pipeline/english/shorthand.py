"""Texting shorthand read as the words it stands for: "could u drop the peanut thing" is read
as "could you drop the peanut thing", so the rules and the nearest examples (written out in
full) see the request it makes.

This is for reading only. A fact keeps what the person typed ("my bday is june 3" is stored
with "bday"); only its framing is read past shorthand ("plz remember ... thx" frames a fact as
"please remember ... thanks" does), and the companion's "u" and "ur" in it are voiced as "you"
and "your" are (pipeline/english/extract.py).

A form is read only as a whole token, with space (or the message's edge) on both sides and at
most closing punctuation after it: "r&b", "u2", "U-turn", "401(k)", "dana.k@…" and "u.s." are
kept. A capital inside a sentence is kept ("I code in R", "Ty's birthday"), since it names
something; and so is a letter named as a letter ("the letter u").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.english.surface import SENTENCE_START

# Forms with one reading. "id", "ill", "its", "were", "lets", "hell" and "well" are words of
# their own and are never read as "I'd", "I'll", "it's", "we're", "let's", "he'll", "we'll";
# "bf" (boyfriend or best friend) and "cos" have two readings and are left as typed.
SHORTHAND = {
    # pronouns and "are"
    "u": "you", "r": "are", "urs": "yours", "y'all": "you all", "yall": "you all",
    # question words typed short ("wat did i say", "wen is it")
    "wat": "what", "wut": "what", "wht": "what", "wen": "when", "whn": "when", "whr": "where",
    # politeness
    "plz": "please", "pls": "please", "plse": "please",
    "thx": "thanks", "thnx": "thanks", "thanx": "thanks", "tysm": "thank you so much",
    # contractions typed without their apostrophe
    "im": "i'm", "ive": "i've", "youre": "you're", "theyre": "they're", "shes": "she's",
    "hes": "he's", "thats": "that's", "whats": "what's", "theres": "there's",
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't", "wont": "won't",
    "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't", "werent": "weren't",
    "havent": "haven't", "hasnt": "hasn't", "wouldnt": "wouldn't", "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    # abbreviations (the slip reader would otherwise take "bday" for "bray", "fave" for "face")
    "abt": "about", "bc": "because", "cuz": "because", "coz": "because", "bday": "birthday",
    "fave": "favourite", "fav": "favourite", "tmrw": "tomorrow", "tmr": "tomorrow",
    "rn": "right now", "idk": "i don't know", "ppl": "people", "msg": "message", "b4": "before",
}  # fmt: skip
# "ur" is "you're" before what follows "you're" (an article, an adverb, an -ing form, a word
# that describes: "ur the best", "ur so right", "ur welcome", "ur hilarious"), and "your"
# otherwise ("ur note"), the reading that never makes a thing of the person's into a claim.
_YOURE_BEFORE = re.compile(
    r"(?:a|an|the|so|such|not|too|very|really|always|never|just|still|all|sure|welcome|right|"
    r"wrong|correct|kidding|joking|gonna|great|amazing|awesome|brilliant|lovely|funny|kind|"
    r"sweet|smart|\w+ing|\w+ous|\w+ful)\b",
    re.IGNORECASE,
)
# "ya" opening a message is "yeah" ("ya i did"); elsewhere, or before "know", it is "you".
_YOU_NOT_YEAH = re.compile(r"know\b|think\b|see\b", re.IGNORECASE)
# A whole-message reply only: "k" inside a message may be "401(k)" or "5 k".
_WHOLE_REPLY = {"k": "okay", "kk": "okay"}

_TOKEN = re.compile(r"(?<!\S)(?P<word>[A-Za-z0-9][A-Za-z0-9'’]*)(?=[.,;:!?)\"]*(?:\s|$))")
_LETTER = re.compile(r"\b(?:letters?|initials?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """A text read past its shorthand, with where each read span came from in what was typed."""

    typed: str
    read: str
    # (typed start, typed end, read start, read end) of each form read, in order
    edits: tuple[tuple[int, int, int, int], ...]

    def typed_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the typed text that a span of the reading was read from (a form cut
        through the middle counts whole)."""
        return self._typed_at(start, before=True), self._typed_at(end, before=False)

    def _typed_at(self, offset: int, *, before: bool) -> int:
        shift = 0
        for typed_start, typed_end, read_start, read_end in self.edits:
            if offset <= read_start:
                break
            if offset < read_end:
                return typed_start if before else typed_end
            shift = typed_end - read_end
        return offset + shift


def _expansion(word: str, text: str, start: int, end: int) -> str | None:
    lowered = word.lower().replace("’", "'")
    if len(lowered) <= 2 and word[0].isupper() and not SENTENCE_START.search(text[:start]):
        return None  # a capital letter or pair inside a sentence names something ("R", "U")
    if word[:1].isupper() and word[1:].islower() and not SENTENCE_START.search(text[:start]):
        return None  # "Ty", "Bc" inside a sentence: a name
    if _LETTER.search(text[:start]):
        return None
    if lowered in _WHOLE_REPLY:
        return _WHOLE_REPLY[lowered] if text.strip(" .!").lower() == lowered else None
    following = text[end:].lstrip(' .,;:!?)"')
    if lowered == "ur":
        return you_form(lowered, following)
    if lowered == "ya":
        opens = not text[:start].strip() or SENTENCE_START.search(text[:start])
        return "yeah" if opens and not _YOU_NOT_YEAH.match(following) else "you"
    return SHORTHAND.get(lowered)


def _cased(expansion: str, typed: str) -> str:
    return expansion[:1].upper() + expansion[1:] if typed[:1].isupper() else expansion


def read_shorthand(text: str) -> Reading:
    """The text with each shorthand form read as the words it stands for."""
    pieces: list[str] = []
    edits: list[tuple[int, int, int, int]] = []
    at = 0
    length = 0
    for found in _TOKEN.finditer(text):
        word = found.group("word")
        expansion = _expansion(word, text, found.start(), found.end())
        if expansion is None:
            continue
        kept = text[at : found.start()]
        pieces.append(kept)
        length += len(kept)
        read = _cased(expansion, word)
        edits.append((found.start(), found.end(), length, length + len(read)))
        pieces.append(read)
        length += len(read)
        at = found.end()
    pieces.append(text[at:])
    return Reading(text, "".join(pieces), tuple(edits))


def you_form(word: str, following: str) -> str | None:
    """The written-out "you" form a shorthand pronoun stands for ("ur" before "sister" is
    "your"), or None when the word is none: the voice of a stored fact turns it to "I"/"my"."""
    lowered = word.lower().replace("’", "'")
    if lowered == "ur":
        return "you're" if not following or _YOURE_BEFORE.match(following) else "your"
    return {"u": "you", "urs": "yours", "youre": "you're"}.get(lowered)


def unabbreviated(text: str) -> str:
    """The text with texting shorthand read as the words it stands for ("plz forget ur note"
    -> "please forget your note")."""
    return read_shorthand(text).read
