"""The words of a conversation's language that keyword matching must not read as content, and
those by which the writing checks read a memory item.

The core holds no word of any language: keyword matching (pipeline/memory/matching.py),
recall, commit_knowledge and the writing checks (pipeline/memory/writing.py) take these sets
as data, lent by the provider bundle
(pipeline/providers/base.py, `Providers.lexicon`) and handed to handlers through their
context. A bundle that lends none gets `NO_LEXICON`: every word counts as content, which is
the language-free behaviour (docs/intents.md, "The local provider's reading").
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.domain import ProfileField


@dataclass(frozen=True)
class Lexicon:
    """Word sets of one language, all lower-case.

    `stop_words`: words that never name what a forget request, a question or a note is about
    ("the", "my", "thing"), so a description made only of them names nothing.
    `question_words`: words that ask without naming what is asked about ("when", "did"),
    skipped when recall searches for a question's subject.
    `every_item`: words by which a reference means every held item ("all of those").
    `topic_openers`: words a status note's topic drops at its start ("the car", "my car" and
    "car" are one topic), so a later report on the same thing replaces the earlier one.
    `profile_patterns`: per sensitive profile field, a regular expression (case-insensitive)
    over a fact's wording that names a change of it ("you go by Sam"): the labelled fallback
    for a classifier answer that does not say which field a fact changes
    (pipeline/memory/profile_fields.py).
    `first_person`, `second_person`: the person's words for themselves ("i", "my") and for
    the one addressed ("you", "your"), by which the writing checks
    (pipeline/memory/writing.py) tell a memory item's voice; none lent, voice is not checked.
    `pointing_openers`: words and phrases a memory item may not open with, because they point
    at something outside it ("it", "they", "as mentioned").
    `self_talk`: phrases in which a writing model speaks of itself ("as an ai", "i'll
    remember").
    `trailing_joiners`: words a memory item cut short must not end on ("and", "because").
    """

    name: str = ""
    stop_words: frozenset[str] = frozenset()
    question_words: frozenset[str] = frozenset()
    every_item: frozenset[str] = frozenset()
    topic_openers: frozenset[str] = frozenset()
    profile_patterns: tuple[tuple[ProfileField, str], ...] = ()
    first_person: frozenset[str] = frozenset()
    second_person: frozenset[str] = frozenset()
    pointing_openers: frozenset[str] = frozenset()
    self_talk: frozenset[str] = frozenset()
    trailing_joiners: frozenset[str] = frozenset()


NO_LEXICON = Lexicon()
