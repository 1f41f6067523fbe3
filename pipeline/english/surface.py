"""What a message's surface adds without meaning, taken off before it is read: filler ("tbh",
"lol", "ok so"), emoji, and typos in the words a reply is read by ("yws", "thaf's it",
"sorrg, corrdct"). A slipped cue word is put back to the one cue word it is a slip of, and only
from a token that is not a word itself (the caller passes its vocabulary): "yet" stays "yet".
Facts keep what the person typed."""

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
_TOKEN = re.compile(r"[A-Za-z][A-Za-z']*")
_F = re.IGNORECASE
# Filler that carries no content wherever it stands: "five of us now tbh", "12th lol".
FILLER_TAIL = re.compile(
    r"(?:[\s,.;:!—–-]+(?:tbh|to be honest|honestly|lol|lmao|haha+|ha+|ngl|fr|imo|tho|though|"
    r"i guess|i think|innit|mate|x+|:\)|:d|:p))+[\s.!?]*$",
    _F,
)
FILLER_LEAD = re.compile(
    r"^(?:(?:tbh|honestly|ngl|to be honest|lol|ok so|okay so|so)\b[\s,]*)+", _F
)
# Pictographs and their modifiers: a smiley says nothing a rule could read.
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\U0001f3fb-\U0001f3ff]+"
)


def plain(message: str, known: Collection[str]) -> str:
    """The message as the English rules read it: no emoji, no filler, cue typos restored."""
    text = " ".join(_EMOJI.sub(" ", message).split())
    for _ in range(2):
        text = FILLER_LEAD.sub("", text).strip()
        text = FILLER_TAIL.sub("", text).strip()
    return without_cue_typos(text, known) or message.strip()


def _one_slip(typed: str, word: str) -> bool:
    """One key replaced (never the first) or two neighbours swapped."""
    if len(typed) != len(word) or typed[0] != word[0] or len(word) < 3:
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
    if len(diff) == 1:
        return True
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and typed[diff[0]] == word[diff[1]]
        and typed[diff[1]] == word[diff[0]]
    )


@lru_cache(maxsize=4096)
def _cue_for(token: str) -> str | None:
    found = [word for word in CUE_WORDS if _one_slip(token, word)]
    return found[0] if len(found) == 1 else None


def without_cue_typos(message: str, known: Collection[str]) -> str:
    """The message with each slipped cue word restored; every other token as typed."""

    def restored(found: re.Match[str]) -> str:
        token = found.group(0)
        lowered = token.lower()
        if lowered in CUE_WORDS or lowered in known or lowered.replace("'", "") in known:
            return token
        cue = _cue_for(lowered)
        if cue is None:
            return token
        return cue.capitalize() if token[0].isupper() else cue

    return _TOKEN.sub(restored, message)
