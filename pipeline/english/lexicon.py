"""English words that carry no content, lent to the core as data (pipeline/lexicon.py).

The core's keyword matching, recall and commit_knowledge read these through the provider
bundle (`Providers.lexicon`); the registered providers all converse in English and lend
`ENGLISH`. The English rules of the `local` provider use the same sets through `keywords`.
"""

from __future__ import annotations

from pipeline.english.profile import PROFILE_PATTERNS
from pipeline.lexicon import Lexicon
from pipeline.memory.matching import content_words


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words of a forget request, a question or a reference that never name what it is about.
_FUNCTION = _words(
    """
        forget about my that the thing things stuff i me a an and or of to in on for is was
        am are you your please stop remembering remember using know what which one it its
        this with at be do dont don't told said just fact info information bit part im i'm
        anymore any more again so we our all
    """
)
# Words about the memory itself, not its content: "put the irrigation note back" must not
# match every note because each is a "note".
_ABOUT_MEMORY = _words(
    """
        note notes entry entries memory memories project put back delete remove restore
        erase drop bring undo also no instead actually can keeping need needs
    """
)
# Words of a question that never name what is asked about (recall skips them too).
_QUESTION = _words("what when where which who how why did does tell said say")
# Words by which a reference to held notes means every one of them ("mark all of those").
_EVERY_ITEM = _words("all everything those these them")
# Articles and possessives a status note's topic starts with ("the car", "my car": "car").
_TOPIC_OPENERS = _words("the a an my our his her their your")

ENGLISH = Lexicon(
    name="en",
    stop_words=_FUNCTION | _ABOUT_MEMORY,
    question_words=_QUESTION,
    every_item=_EVERY_ITEM,
    topic_openers=_TOPIC_OPENERS,
    profile_patterns=PROFILE_PATTERNS,
)


def keywords(text: str) -> set[str]:
    """The words of English `text` that carry meaning (what the local provider's rules match)."""
    return content_words(text, ENGLISH.stop_words)
