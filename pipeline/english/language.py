"""Language cues the embedding alone misses: sentence form, who is spoken about, request verbs.

Sentence embeddings group messages by topic ("the sourdough" questions next to sourdough
facts); these cues describe the *form* of a message instead. They are features of English,
not of any particular message, and the classifier learns their weights from the examples.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt


def wordset(text: str) -> frozenset[str]:
    """The space-separated words of `text` as a set."""
    return frozenset(text.split())


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

WH_WORDS = wordset("what which when where who whom whose why how")
AUX_START = wordset(
    "do does did can could should would will is are was were have has had may might shall "
    "am isn't aren't don't doesn't didn't can't won't"
)
FIRST_PERSON = wordset("i i'm i've i'd i'll me my mine myself im ive")
WE = wordset("we we're we've our ours us")
OTHERS = wordset(
    "wife husband partner son daughter kid kids child children mum mom mother dad father "
    "brother sister grandmother grandfather grandma grandpa family friend roommate "
    "boyfriend girlfriend baby aunt uncle cousin niece nephew dog cat pet in-law fiance "
    "fiancee"
)
NEGATIONS = wordset("not no never n't don't doesn't didn't isn't aren't wasn't won't can't")
HYPOTHETICAL = wordset("if suppose supposing imagine hypothetically whether wondering")
MEMORY_WORDS = wordset(
    "remember memory memories forget forgot note notes noted notebook record recorded "
    "stored store saved save list project projects knowledge entry entries file"
)
PROJECT_WORDS = wordset(
    "project recipe build trip plan novel book app shoot renovation garden job course "
    "itinerary menu design draft"
)

# Verbs and phrases by the request they make; matched on the whole lower-cased message.
VERB_CUES: dict[str, str] = {
    "forget": r"\b(forget|unremember|unlearn|stop (remembering|storing|keeping|using)|"
    r"don't (want you to )?(remember|keep|store)|no longer (remember|need)|"
    r"(you )?(don't|do not|no) (need|have)( you)? to (remember|know|keep|store)|"
    r"(erase|wipe|delete|remove|drop|scrap|clear|take out|get rid of)\b.*\b(memory|about me|"
    r"you (know|remember|have)|told you|said|mentioned))",
    "remove": r"\b(remove|delete|drop|scrap|scratch|strike|retract|withdraw|cross off|"
    r"take (out|off)|get rid of|undo|clear)\b",
    "show": r"\b(show|list|display|print|pull up|recap|enumerate|walk me through|overview|"
    r"dump|open the|let me see|give me (the|a) (full )?list)\b",
    "commit": r"\b(lock|commit|finali[sz]e|settle|set in stone|permanent|final|definite|"
    r"confirm(ed)? (number|#|note|it as)|mark\b.*\b(final|decided|settled|done))\b",
    "remind": r"\b(remind(?! me,? (what|which|when|where|who|how|of what))|reminder|ping me|"
    r"nudge me|alert me|alarm|heads up (the|on|before)|don't let me forget)\b",
    "search": r"\b(look (it )?up|search|google|browse|online|on the (web|internet)|"
    r"the (web|internet)|latest|current (price|rate)|today's)\b",
    "share": r"\b(share|invite|give\b.*\baccess|grant|let \w+ (see|view)|visible to|"
    r"add (my|the) \w+ to)\b",
    "export": r"\b(export|download|pdf|csv|markdown|json|spreadsheet|excel|word document|"
    r"printable|zip|html|text file|back up this)\b",
    "past": r"\b(did i (say|tell|mention|give)|(what|which|when|where|how \w+)\b.*\bdid i\b|"
    r"have i (told|mentioned|said)|do you (remember|recall|know)|"
    r"remind me,? (what|which|when|where|who|how)|i told you|what was (the|that)|"
    r"what's my|what is my|what do you know|what have i)\b",
    "capability": r"\b(what can you|what are you|how do you work|capab|abilit|features|"
    r"what (do|does) (you|this)|options|help\b|commands|useful|what.*for\b)",
    "framing": r"\b(just so you know|remember (that|i)|fyi|for what it's worth|heads up|"
    r"for (future )?reference|keep in mind|note that|by the way|i should (mention|tell you)|"
    r"please remember|bear in mind)\b",
    # "We use PostgreSQL for this project": a statement by the team, not a request about it.
    "we_state": r"^(we|we're|we've|we'll|our|the team)\b(?!.*\?)(?!.*\b(share|export|list|"
    r"show|remove|delete)\b)",
    "future_self": r"\b(from now on|in future|going forward|always|every time|any project|"
    r"all (my|of my) projects)\b",
}
_VERB_RE = {name: re.compile(pattern) for name, pattern in VERB_CUES.items()}


def words(text: str) -> list[str]:
    """Lower-case words, apostrophes kept ("i'm", "don't")."""
    return _WORD.findall(text.lower().replace("’", "'"))


# Words that lead into a question without being part of it: "and where do I live again".
QUESTION_LEAD = wordset("and so ok okay oh but hang on wait also then hey hmm um well right")
WH_CONTRACTED = wordset("what's who's where's when's how's why's what're whats hows wheres")
# Who a question asks about, right after its auxiliary: "would I need a visa", "is it normal".
SUBJECTS = wordset(
    "i you he she it we they there anyone anybody someone somebody everyone everybody people "
    "u ya y'all"
)
DETERMINERS = wordset("the a an my your his her our their its any some this that these those")
# Auxiliaries that open a statement with its subject left out ("had a great time", "did my
# first 10k", "can't wait", "would love to"): a question only before a subject pronoun.
_SUBJECTLESS_OPENERS = wordset(
    "had have has did was were can could would should will might may shall can't won't "
    "don't doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't couldn't "
    "wouldn't shouldn't"
)
# "would that work", "is this normal" ask; "did that yesterday", "had this before" do not.
_THIS_THAT = wordset("this that")
_DOING = wordset("do did had have has don't didn't")
# Emphatic imperatives: "do remember that ...", "do let me know".
_EMPHATIC = wordset("remember note keep let bear try tell come check make take not please")
# A wh-word before its own subject opens a statement ("when I travel, ...", "what a day").
_WH_STATEMENT = wordset("i i'm i've i'd we we're we've he she they a an")
_HOW_ASKS = wordset(
    "many much long often far old big soon come about else exactly do does did can could "
    "should would will is are was were have has had might may am"
)
# An indirect question put as a request: "remind me what I'm allergic to".
_ASKS_INDIRECTLY = re.compile(
    r"^(?:(?:can|could|would) you )?(?:please )?(?:remind me|tell me|i wonder|i'm wondering|"
    r"any idea|no idea|do you know|not sure)\b,? (?:what|which|when|where|who|whom|whose|why|"
    r"how|if|whether)\b"
)
_CLAUSES = re.compile(r"(?<=[.!?;:])\s+|\s+[—–]\s+|\s+-\s+")


def _clause_asks(clause: str) -> bool:
    tokens = words(clause)
    while tokens and tokens[0] in QUESTION_LEAD:
        tokens = tokens[1:]
    if not tokens:
        return False
    first, after = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in WH_CONTRACTED:
        return True
    if first in WH_WORDS:
        if first == "how":
            return after in _HOW_ASKS or after.endswith("n't")
        return after not in _WH_STATEMENT
    if first in AUX_START:
        if after in SUBJECTS or (after in _THIS_THAT and first not in _DOING):
            return True
        if first in _SUBJECTLESS_OPENERS:
            return False
        if first in ("do", "does") and after in _EMPHATIC:
            return False
        return bool(after)
    return bool(_ASKS_INDIRECTLY.match(" ".join(tokens)))


def is_question(text: str) -> bool:
    """A question by punctuation or by form, in its first or last clause, past a lead-in
    ("and", "hang on"): "and which hand do I write with", "would I need a visa if ...",
    "I'm in a rush — what can I make in ten minutes" ask, with or without their question mark.
    A statement that opens with its subject left out ("had a great time", "can't wait") does
    not."""
    if text.rstrip().endswith("?"):
        return True
    clauses = [c for c in _CLAUSES.split(text.replace("’", "'").strip()) if words(c)]
    if not clauses:
        return False
    return _clause_asks(clauses[0]) or _clause_asks(clauses[-1])


def starts_with_first_person(tokens: list[str]) -> bool:
    """ "I ..." / "My ..." at the start, after a framing comma if any."""
    return bool(tokens) and tokens[0] in FIRST_PERSON


def has_negation(tokens: list[str]) -> bool:
    """Any negation word."""
    return any(t in NEGATIONS or t.endswith("n't") for t in tokens)


def _has(tokens: list[str], vocabulary: frozenset[str]) -> bool:
    return any(t in vocabulary for t in tokens)


FORM_FEATURES = (
    "question",
    "question_mark",
    "wh_start",
    "first_person_start",
    "first_person",
    "we",
    "others",
    "you",
    "negation",
    "hypothetical",
    "memory_words",
    "project_words",
    "this_that",
    "digits",
    "hash_number",
    "short",
)
FEATURE_NAMES = FORM_FEATURES + tuple(f"cue_{name}" for name in VERB_CUES)
_THIS = re.compile(r"\b(this|these) \w+")
_HASH_NUMBER = re.compile(r"#\d|\b(number|note) \d")


def cue_features(text: str) -> npt.NDArray[np.float32]:
    """The form features of one message (FEATURE_NAMES, in order), each in [0, 1]."""
    tokens = words(text)
    lowered = text.lower()
    form = [
        is_question(text),
        text.rstrip().endswith("?"),
        bool(tokens) and tokens[0] in WH_WORDS,
        starts_with_first_person(tokens),
        min(sum(1 for t in tokens if t in FIRST_PERSON), 3) / 3.0,
        _has(tokens, WE),
        _has(tokens, OTHERS),
        any(w in ("you", "your", "you're") for w in tokens),
        has_negation(tokens),
        _has(tokens, HYPOTHETICAL),
        _has(tokens, MEMORY_WORDS),
        _has(tokens, PROJECT_WORDS),
        bool(_THIS.search(lowered)),
        any(c.isdigit() for c in text),
        bool(_HASH_NUMBER.search(lowered)),
        len(tokens) <= 3,
    ]
    cues = [bool(pattern.search(lowered)) for pattern in _VERB_RE.values()]
    return np.array([float(v) for v in form + cues], dtype=np.float32)


def cue_matrix(texts: list[str]) -> npt.NDArray[np.float32]:
    """Form features of many messages, one row each."""
    if not texts:
        return np.zeros((0, len(FEATURE_NAMES)), dtype=np.float32)
    return np.stack([cue_features(t) for t in texts])
