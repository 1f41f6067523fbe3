"""What a message's surface adds without meaning, taken off before it is read: filler ("tbh",
"lol", "ok so"), emoji, and typos in the words a reply is read by ("yws", "thaf's it",
"sorrg, corrdct") and in the values a correction names ("two mlnths ago"). A slipped word is
put back to the one cue or value word it is a slip of, and only from a token that is not a
word itself (the caller passes its vocabulary): "yet" stays "yet". Facts keep what the person
typed otherwise (pipeline/english/spelling.py reads past other slips without storing them)."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

# The words the English reading decides by (pipeline/english/cues.py, the local provider's
# continuation rules, pipeline/english/choices.py).
CUE_WORDS = frozenset(
    re.findall(
        r"\S+",
        """
        yes yeah yep yup sure correct correct right exactly absolutely definitely certainly
        indeed okay perfect great good fine true please ahead that's it's that right thanks thank
        no nope nah not never mind nevermind forget ignore cancel skip scratch don't do wrong
        incorrect actually sorry oops correction mean meant rather instead just only wait close
        almost nearly bother remember remembering keep store save record note delete remove drop
        erase back restore undo first second third fourth fifth last both all none neither
        project here this one ones agreed totally spot bingo confirm confirmed typo mistake
        misspoke change make should other latter former what where when which who how why
        stored remind tell know things notes note left about have keep kept
        """,
    )
)
# The values a correction is read by (pipeline/english/refine.py): a slip in "mlnths" must not
# keep "two months ago" from replacing "last month".
VALUE_WORDS = frozenset(
    re.findall(
        r"\S+",
        """
        second seconds minute minutes hour hours day days week weeks fortnight month months year
        years decade decades ago last next morning mornings evening evenings night nights
        monday tuesday wednesday thursday friday saturday sunday weekend weekends
        mondays tuesdays wednesdays thursdays fridays saturdays sundays
        january february april june july august september october november december
        three four five seven eight nine eleven twelve thirteen fourteen fifteen sixteen
        seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
        hundred thousand half dozen couple several
        """,
    )
)
# Contractions are words of their own, though the model's vocabulary splits them ("i've").
CONTRACTIONS = frozenset(
    re.findall(
        r"\S+",
        """
        i'm i've i'd i'll you're you've you'd you'll he's she's it's we're we've we'd we'll
        they're they've they'd they'll that's there's here's what's where's who's how's when's
        let's don't doesn't didn't can't won't isn't aren't wasn't weren't haven't hasn't hadn't
        couldn't wouldn't shouldn't mustn't
        """,
    )
)
_RESTORED = CUE_WORDS | VALUE_WORDS | CONTRACTIONS
# Adjacent keys on a QWERTY keyboard: the substitutions a hurried thumb makes.
NEIGHBOURS = {
    "q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf", "t": "ryfg", "y": "tugh", "u": "yihj",
    "i": "uojk", "o": "ipkl", "p": "ol", "a": "qwsz", "s": "awedxz", "d": "serfcx",
    "f": "drtgvc", "g": "ftyhbv", "h": "gyujnb", "j": "huikmn", "k": "jiolm", "l": "kop",
    "z": "asx", "x": "zsdc", "c": "xdfv", "v": "cfgb", "b": "vghn", "n": "bhjm", "m": "njk",
}  # fmt: skip
# What comes before a sentence's first word: a capital after it is not a name's.
SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|[—–]\s*)$")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z']*")
_F = re.IGNORECASE
# Filler that carries no content wherever it stands: "five of us now tbh", "12th lol". The
# closing punctuation after it is the message's own ("any ideas lol?" still asks).
FILLER_TAIL = re.compile(
    r"(?:[\s,.;:!—–-]+(?:tbh|to be honest|honestly|lol|lmao|haha+|ha+|ngl|fr|imo|tho|though|"
    r"i guess|i think|innit|mate|x+|:\)|:d|:p))+(?P<end>[\s.!?]*)$",
    _F,
)
FILLER_LEAD = re.compile(
    r"^(?:(?:tbh|honestly|ngl|to be honest|lol|ok so|okay so|so)\b[\s,]*)+", _F
)
# Pictographs and their modifiers: a smiley says nothing a rule could read.
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\U0001f3fb-\U0001f3ff]+"
)


def without_filler(text: str) -> str:
    """The text without filler before or after it; its closing punctuation kept."""
    text = " ".join(text.split())
    for _ in range(2):
        text = FILLER_LEAD.sub("", text).strip()
        text = FILLER_TAIL.sub(lambda found: found.group("end").strip(), text).strip()
    return text


# Filler that is never a word of a fact ("mate", "though", "x" may be): what an embedding of
# any text, a stored fact included, reads past.
_PURE_FILLER_TAIL = re.compile(
    r"(?:[\s,.;:!—–-]+(?:tbh|to be honest|lol|lmao|haha+|ngl|imo|:\)|:d|:p))+(?P<end>[\s.!?]*)$",
    _F,
)
_PURE_FILLER_LEAD = re.compile(r"^(?:(?:tbh|ngl|to be honest|lol|ok so|okay so)\b[\s,]*)+", _F)


def without_surface(text: str) -> str:
    """The text without emoji and edge filler, as a sentence embedding should read it; a text
    with neither is returned exactly as given (so its vector is the same as ever)."""
    cleaned = " ".join(_EMOJI.sub(" ", text).split())
    for _ in range(2):
        cleaned = _PURE_FILLER_LEAD.sub("", cleaned).strip()
        cleaned = _PURE_FILLER_TAIL.sub(lambda found: found.group("end").strip(), cleaned)
    return cleaned if cleaned and cleaned != " ".join(text.split()) else text


def plain(message: str, known: Collection[str]) -> str:
    """The message as the English rules read it: no emoji, no filler, cue typos restored."""
    return without_cue_typos(without_filler(_EMOJI.sub(" ", message)), known) or message.strip()


def _one_slip(typed: str, word: str) -> bool:
    """One key replaced by a neighbouring one (never the first) or two neighbours swapped:
    "yws" is a slip of "yes", "acl" is no slip of "all"."""
    if len(typed) != len(word) or typed[0] != word[0] or len(word) < 3:
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
    if len(diff) == 1:
        return typed[diff[0]] in NEIGHBOURS.get(word[diff[0]], "")
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and typed[diff[0]] == word[diff[1]]
        and typed[diff[1]] == word[diff[0]]
    )


@lru_cache(maxsize=4096)
def _cue_for(token: str) -> str | None:
    found = [word for word in _RESTORED if _one_slip(token, word)]
    return found[0] if len(found) == 1 else None


def without_cue_typos(message: str, known: Collection[str]) -> str:
    """The message with each slipped cue word restored; every other token as typed."""

    def restored(found: re.Match[str]) -> str:
        token = found.group(0)
        lowered = token.lower()
        if lowered in _RESTORED or lowered in known or lowered.replace("'", "") in known:
            return token
        if token[0].isupper() and not SENTENCE_START.search(message[: found.start()]):
            return token  # a capitalised word inside a sentence is a name ("Fibe"), kept
        cue = _cue_for(lowered)
        if cue is None:
            return token
        return cue.capitalize() if token[0].isupper() else cue

    return _TOKEN.sub(restored, message)


# Written-out forms and the contraction the examples and cues are written with; only forms
# with one reading ("I am", "do not"), so a reading never changes meaning.
_CONTRACT = {
    "i am": "i'm", "you are": "you're", "we are": "we're", "they are": "they're",
    "it is": "it's", "that is": "that's", "what is": "what's", "there is": "there's",
    "do not": "don't", "does not": "doesn't", "did not": "didn't", "is not": "isn't",
    "are not": "aren't", "was not": "wasn't", "were not": "weren't", "cannot": "can't",
    "can not": "can't", "will not": "won't", "would not": "wouldn't", "should not": "shouldn't",
    "could not": "couldn't", "have not": "haven't", "has not": "hasn't", "i will": "i'll",
}  # fmt: skip
# Only before another word: "it is what it is" keeps its last "it is".
_WRITTEN_OUT = re.compile(
    r"\b(?:" + "|".join(sorted(_CONTRACT, key=len, reverse=True)) + r")(?=\s+\w)", _F
)


def contracted(text: str) -> str:
    """The text with written-out forms contracted ("I am" -> "I'm"), as it is read."""

    def contract(found: re.Match[str]) -> str:
        said = found.group(0)
        short = _CONTRACT[" ".join(said.lower().split())]
        return short[:1].upper() + short[1:] if said[:1].isupper() else short

    return _WRITTEN_OUT.sub(contract, text)
