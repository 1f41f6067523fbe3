"""English words that carry no content, and those the writing checks read, lent to the core as
data (pipeline/lexicon.py).

The core's keyword matching, recall, commit_knowledge and writing checks read these through
the provider bundle (`Providers.lexicon`); the registered providers all converse in English
and lend `ENGLISH`. The English rules of the `local` provider use the same sets through
`keywords`.
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


def _phrases(text: str) -> frozenset[str]:
    return frozenset(" ".join(p.split()) for p in text.split(",") if p.strip())


# The person's words for themselves and for the one addressed: a personal fact is stored
# addressed to the person ("You're allergic"), an insight or a narrative in neither.
_FIRST_PERSON = _words("i i'm i've i'd i'll me my mine myself")
_SECOND_PERSON = _words("you you're you've you'd you'll your yours yourself")
# What an item may not open with: it points at something outside the item.
_POINTING_OPENERS = _words(
    "it that this these those he she they him her them his hers their there"
) | _phrases("as mentioned, as said, as noted, as discussed, the above, see above, same as")
# The writing model speaking of itself.
_SELF_TALK = _phrases(
    """
        as an ai, as a language model, i'll remember, i will remember, i'll note, i will note,
        i'll keep, i will keep, i've noted, i have noted, the assistant, this assistant, the ai
    """
)
# Words a trimmed item must not end on: the clause they open was cut.
_TRAILING_JOINERS = _words("and or but so because which that with to of")

ENGLISH = Lexicon(
    name="en",
    stop_words=_FUNCTION | _ABOUT_MEMORY,
    question_words=_QUESTION,
    every_item=_EVERY_ITEM,
    topic_openers=_TOPIC_OPENERS,
    profile_patterns=PROFILE_PATTERNS,
    first_person=_FIRST_PERSON,
    second_person=_SECOND_PERSON,
    pointing_openers=_POINTING_OPENERS,
    self_talk=_SELF_TALK,
    trailing_joiners=_TRAILING_JOINERS,
)


def keywords(text: str) -> set[str]:
    """The words of English `text` that carry meaning (what the local provider's rules match)."""
    return content_words(text, ENGLISH.stop_words)
