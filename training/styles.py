"""Styles: how the same draft is typed, dictated or written. Each rewrites segments one by one."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace

from training import words as w
from training.schema import Draft

Style = Callable[[Draft, random.Random], Draft]
_PUNCT = re.compile(r"[.,!?;:—…\"]")
_WORD = re.compile(r"[A-Za-z']+")


def _map(draft: Draft, change: Callable[[str], str], labelled_too: bool = True) -> Draft:
    segments = [(change(t) if (labelled_too or not k) else t, k) for t, k in draft.segments]
    return replace(draft, segments=segments)


def _around(draft: Draft, head: str = "", tail: str = "") -> Draft:
    segments = list(draft.segments)
    if head:
        first, kind = segments[0]
        if not kind and first and first[0].isupper() and not first.startswith("I "):
            segments[0] = (first[0].lower() + first[1:], kind)
        segments.insert(0, (head, None))
    if tail:
        segments.append((tail, None))
    return replace(draft, segments=segments)


def plain(draft: Draft, rng: random.Random) -> Draft:
    """As written: the first letter capitalised at times, a full stop at times."""
    if rng.random() < 0.5:
        text, kind = draft.segments[0]
        draft = replace(draft, segments=[(text[:1].upper() + text[1:], kind), *draft.segments[1:]])
    last = draft.segments[-1][0]
    if rng.random() < 0.3 and last and last[-1].isalnum():
        draft = _around(draft, tail=".")
    return draft


def texting(draft: Draft, rng: random.Random) -> Draft:
    """Lower case, shorthand, apostrophes and closing punctuation dropped."""

    def swap(text: str) -> str:
        text = _WORD.sub(lambda m: w.TEXTING_SWAPS.get(m.group().lower(), m.group()), text.lower())
        return text.replace("'", "") if rng.random() < 0.6 else text

    out = _map(draft, swap)
    last, kind = out.segments[-1]
    if not kind and last in {".", "?"} and rng.random() < 0.5:
        out = replace(out, segments=out.segments[:-1])
    return out


def voice(draft: Draft, rng: random.Random) -> Draft:
    """A voice transcript: no punctuation, lower case, a filler word or two."""
    out = _map(draft, lambda t: _PUNCT.sub("", t).lower())
    if rng.random() < 0.7:
        out = _around(out, head=rng.choice(w.VOICE_FILLERS) + " ")
    if rng.random() < 0.3:
        out = _around(out, tail=" " + rng.choice(w.VOICE_FILLERS))
    return out


def formal(draft: Draft, rng: random.Random) -> Draft:
    """A letter: a greeting, full sentences, a sign-off."""
    out = _around(draft, head=rng.choice(w.GREETINGS_FORMAL))
    last = out.segments[-1][0]
    if last and last[-1].isalnum():
        out = _around(out, tail=".")
    return _around(out, tail=rng.choice(w.SIGNOFFS_FORMAL))


def shout(draft: Draft, rng: random.Random) -> Draft:
    """Capitals and a run of exclamation marks."""
    return _around(_map(draft, str.upper), tail=rng.choice(("!!", "!!!", "")))


def emoji(draft: Draft, rng: random.Random) -> Draft:
    """An emoji at the end (or the start)."""
    mark = rng.choice(w.EMOJI_TAILS)
    return (
        _around(draft, tail=" " + mark) if rng.random() < 0.8 else _around(draft, head=mark + " ")
    )


def hedge(draft: Draft, rng: random.Random) -> Draft:
    """A hedge before the first labelled segment (the span stays the fact alone)."""
    for i, (_, kind) in enumerate(draft.segments):
        if kind in {"FACT", "KNOWLEDGE"}:
            segments = list(draft.segments)
            segments.insert(i, (rng.choice(w.HEDGES), None))
            return replace(draft, segments=segments)
    return draft


def opener(pool: tuple[str, ...]) -> Style:
    """A style that puts one of `pool` before the message."""

    def style(draft: Draft, rng: random.Random) -> Draft:
        return _around(draft, head=rng.choice(pool))

    return style


def typos(draft: Draft, rng: random.Random) -> Draft:
    """One or two slips: a letter dropped, doubled or two swapped, in words of four or more."""

    def slip(text: str) -> str:
        tokens = text.split(" ")
        long = [i for i, t in enumerate(tokens) if len(t) >= 4 and t.isalpha()]
        if not long or rng.random() < 0.5:
            return text
        i = rng.choice(long)
        t, j = tokens[i], rng.randrange(1, len(tokens[i]) - 1)
        kind = rng.randrange(3)
        tokens[i] = (
            t[:j] + t[j + 1 :]
            if kind == 0
            else t[:j] + t[j] + t[j:]
            if kind == 1
            else (t[: j - 1] + t[j] + t[j - 1] + t[j + 1 :])
        )
        return " ".join(tokens)

    return _map(draft, slip)


STYLES: dict[str, tuple[Style, int]] = {
    "plain": (plain, 10),
    "texting": (texting, 8),
    "voice": (voice, 5),
    "formal_letter": (formal, 3),
    "shout": (shout, 1),
    "emoji": (emoji, 3),
    "hedge": (hedge, 2),
    "code_switch": (opener(w.SWITCH_OPENERS), 2),
    "slang": (opener(w.SLANG_OPENERS), 2),
    "jargon": (opener(w.JARGON_OPENERS), 1),
    "digression": (opener(w.DIGRESSIONS), 1),
    "typos": (typos, 3),
}


def styled(draft: Draft, rng: random.Random) -> tuple[Draft, str]:
    """The draft in one or two random styles, and their names joined by '+'."""
    names = list(STYLES)
    weights = [STYLES[n][1] for n in names]
    chosen = [rng.choices(names, weights)[0]]
    if rng.random() < 0.3:
        extra = rng.choices(names, weights)[0]
        if extra not in chosen and {"shout", "voice"} != {chosen[0], extra}:
            chosen.append(extra)
    for name in chosen:
        draft = STYLES[name][0](draft, rng)
    return draft, "+".join(chosen)
