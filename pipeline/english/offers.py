"""The English of offers and of replies to them: how a companion turn that offers to remember
or asks whether to forget reads, and the cues by which a reply confirms, rejects, corrects or
limits an offer. Read by the local provider's rule reader (pipeline/providers/local/
continuation.py); the core never imports it (docs/intents.md, "The local provider's reading")."""

from __future__ import annotations

import re

from pipeline.english.language import words, wordset

_F = re.IGNORECASE
ASKS = re.compile(
    r"\?|\b(?:want me to|should i|shall i|would you like|do you want|is that right|"
    r"is that correct|did i get that right|have i got that right|let me know)\b",
    _F,
)
CROSS_PROMOTION = re.compile(
    r"\b(?:across|in|for|to|into) (?:all )?(?:of )?your (?:other )?(?:projects|engagements)\b"
    r"|\b(?:every|any|all) (?:of )?your projects\b|\beverywhere\b|\bbeyond this (?:project|one)\b"
    r"|\bother projects\b|\bacross projects\b|\bpersonal (?:memory|notes|facts)\b"
    r"|\bremember (?:that|this|it) (?:about|for) you\b|\bglobally\b",
    _F,
)
CANDIDATES = re.compile(r"#\d+.*#\d+|\bwhich (?:one|of)\b|\bnot sure which\b", _F)
RESTATED = (
    re.compile(
        r"\bremember (?:that )?(?P<fact>.+?)(?:\s+instead)?\s*"
        r"(?:[—–]|\s-\s|\.(?!\d)|[?!;]|,? is that|,? right\b|\s+across\b|$)",
        _F,
    ),
    re.compile(
        r"(?:^|[—–:,.!]\s*)(?P<fact>(?:you(?:'re|’re| are| have|'ve| prefer| like| love| hate"
        r"| live| work| can't| don't| get| go| were| was)|your\s)[^.?!—–]*)",
        _F,
    ),
)
STOP_USING = re.compile(
    r"\b(?:stop using|stop remembering|forget|remove|delete|drop|erase)\s+"
    r"(?:that\s+|the (?:note|fact) (?:that|about)\s+)?"
    r"(?P<fact>[^?]+?)\s*(?:\?|—|–|$)",
    _F,
)

AFFIRM = re.compile(
    r"^(?:yes|yeah|yea|yep|yup|ya|yes please|sure|surely|correct|right|exactly|absolutely|"
    r"definitely|certainly|indeed|of course|ok|okay|k|affirmative|perfect|great|good|fine|true|"
    r"mhm+|uh[- ]?huh|please|please do|go ahead|go for it|do it|do that|sounds good|sounds right|"
    r"that'?s (?:right|it|correct|the one|true|fine|good|perfect|accurate)|"
    r"that is (?:right|correct)|you got it|spot on|bingo|agreed|confirm(?:ed)?|that one|"
    r"this one|all good|yes sir|aye|totally|"
    # "both right" after two facts offered in one turn, or "all correct"
    r"(?:both|all)(?: of (?:them|those|these))?(?: are| is)? (?:right|correct|true|good|fine)"
    r")\b",
    _F,
)
NEGATE = re.compile(
    r"^(?:no|nope|nah|nay|not really|negative|never ?mind|nevermind|forget it|forget that|"
    r"forget i said|scratch that|cancel|ignore|don't|do not|please don't|let's not|skip|drop it|"
    r"no need|not needed|wrong|incorrect|not now|no thanks|not necessary|leave it|"
    # a verdict on the offer: "that's wrong", "that's not right"
    r"that(?:'?s| is) (?:wrong|incorrect|not (?:right|correct|true|it|quite it))|not right)\b",
    _F,
)
CORRECT = re.compile(
    r"^(?:actually|close|almost|nearly|not quite|not exactly|kind of|sort of|well|wait|sorry|"
    r"oops|correction|i mean|rather|make (?:that|it)|change (?:that|it) to|more like|"
    r"it should be|should be|technically|mostly|partly|partially)\b",
    _F,
)
CONTRAST = re.compile(r"\b(?:not|rather than|instead of|instead)\b|^(?:just|only)\b|\bonly$", _F)
SCOPE = re.compile(
    r"\b(?:just|only|keep (?:it|that|this)|leave (?:it|that)|stay|stays|specific to|limited to|"
    r"relevant to)\b.*\b(?:here|this (?:one|project|\w+)|local|scoped|separate|the \w+)\b"
    r"|\bnot (?:across|everywhere|globally|all of them|for all|in all|in the others|in other|"
    r"my other|for my other)\b|\b(?:other|rest of my) projects (?:don't|do not|won't)\b"
    r"|\bone-off\b|\bout of (?:my|the) other\b|^(?:here|this \w+) only\b|\bthis project only\b"
    r"|^(?:just|only) (?:here|this one|for this)\b",
    _F,
)
# Words a reply uses to talk about the offer rather than to state a new value.
META = wordset(
    "thanks thank you bother leave it that this fine ok okay joking kidding just saying "
    "important matter matters doesn't does worth saving save store remember keep need "
    "needed don't do not please forget never mind i i'm was me it's that's is really all "
    "at anything nothing said know really sure yes yeah no nope nah right correct exactly "
    "remove delete drop one go ahead sounds good great perfect cool across everywhere "
    "projects project them those these the a an of in for my your all good totally "
    "definitely absolutely of course k to was were be want you we us our mean meant thing "
    "stuff anyway ignore cancel skip necessary now later maybe sorry wrong incorrect untrue "
    "quite scrap ditch bin lose both either neither"
)

VALUE_KINDS = (
    re.compile(
        r"\b(?:\d+(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
        r"twelve|twenty|thirty|forty|fifty|hundred|half|dozen)\b",
        _F,
    ),
    re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bweekends?\b", _F),
    re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", _F),
)

REFUSAL = re.compile(
    r"\b(?:don'?t|do not|didn'?t|not|never|no need to|(?:rather|prefer) (?:you )?(?:not|didn'?t)|"
    r"let'?s not|won'?t need to|shouldn'?t)\s+(?:\w+\s+){0,2}?"
    r"(?:store|save|saving|remember|keep|note|record|track|bother|worry|need|use)\b"
    r"(?! (?:me|him|her|them|us)\b)"
    r"|\bforget (?:it|that|i said|about it|i mentioned)\b|\bscratch that\b|\bnever ?mind\b"
    r"|\b(?:just|only) (?:an idea|a thought|saying|thinking|kidding|joking|venting)\b"
    r"|\bwas (?:just )?(?:joking|kidding|saying|venting)\b"
    r"|\bnot (?:important|worth|relevant|needed|necessary|sure yet|certain|definite)\b"
    r"|\bdoesn'?t matter\b|\bignore (?:that|it|me)\b|\bleave it\b|\bdrop it\b|\bskip it\b"
    r"|\b(?:scrap|ditch|bin|delete|lose) (?:that|it|this)\b",
    _F,
)

TRAILING_CORRECTION = re.compile(r"[\s,]+(?:actually|instead)[\s.!]*$", _F)

# "yes, but only the ..." qualifies a confirmation into a correction.
QUALIFIED = re.compile(r"\b(?:but|only|just|except|actually|not)\b", _F)
# An item named by its number or position among those offered.
POSITION = re.compile(r"#?\b\d+\b|\b(?:first|second|third|fourth|fifth|last|latter|former)\b", _F)
# "... too" at the end of a restated fact.
TRAILING_ALSO = re.compile(r"\s+(?:also|too|as well)$", _F)


def same_kind_of_value(body: str, fact: str) -> bool:
    """Whether a reply names a value of a kind the fact holds (a number, a weekday, a month):
    "five of us now" corrects "you cook for four people"."""
    return any(kind.search(body) and kind.search(fact) for kind in VALUE_KINDS)


def found_you(text: str) -> bool:
    """Whether a restated fact is about the person ("you ...", "your ...")."""
    return bool(re.match(r"\s*(?:that\s+)?(?:you|your)\b", text, _F))


def has_new_content(body: str) -> bool:
    """Whether a reply carries a value of its own, beyond yes/no and talk about the offer."""
    return any(w not in META for w in words(body))
