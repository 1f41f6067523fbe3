"""What an operator's message says about the previous offer, read from its English form.

The local provider reads these to give its typed reading (confirm, reject, correct, choose,
unrelated); a model provider's reading comes from the model. The core never calls them
(docs/intents.md, "Readings").
"""

from __future__ import annotations

import re

from pipeline.english.lexicon import keywords

_F = re.IGNORECASE
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _norm(message: str) -> str:
    return " ".join(message.replace("’", "'").split()).strip()


def _words(message: str) -> list[str]:
    return _WORD.findall(_norm(message).lower())


# A correction names the offer's mistake: a leading no / actually / I mean / sorry, or
# "X, not Y", or a trailing "instead".
_INTERJECTION = r"(?:oh|ah+|eh|meh|uh|er+m?|hm+|um+|well|wait|lol|ha+|hey|so|ok|okay)"
_CORRECTION_LEAD = re.compile(
    rf"^(?:{_INTERJECTION}[,\s]+)*"
    r"(?:no\b|nope\b|nah\b|not quite\b|not exactly\b|not really\b|actually\b|i mean\b|"
    r"i meant\b|sorry\b|oops\b|correction\b|wait\b|close\b|almost\b|rather\b|"
    r"make (?:that|it)\b|change (?:that|it)\b|it should be\b|should be\b|wrong\b|"
    r"that's wrong\b|that's not right\b|not\b|scratch that\b|my bad\b|my mistake\b|"
    r"(?:yes|yeah|yep|sure)[,\s]+but\b|just\b(?! so\b)|only\b|it's\b|it is\b|it was\b|its\b|"
    r"make that\b|more like\b)",
    _F,
)
_CORRECTION_ANYWHERE = re.compile(
    r",\s*not\s+\w|\bnot\s+\w+(?:\s+\w+)?,\s*(?:but\s+)?\w|\brather than\b|\binstead of\b|"
    r"\binstead[.!]*$|\bactually[.!]*$|\bi meant\b|\byou got (?:that|it) wrong\b|"
    r"\bthat's not (?:right|correct|quite right)\b|\bcorrection\b|\bi misspoke\b|\btypo\b|"
    # "it's the 12th not the 11th", "half 7 not 7": a value, then the one it replaces
    r"[\w']\s+not\s+(?!(?:sure|really|yet|quite|exactly|now|today|again)\b)"
    r"(?:the\s+|a\s+|an\s+)?[\w'.:-]+[.!]*$",
    _F,
)


_ASKS_SOMETHING_ELSE = re.compile(
    rf"^(?:{_INTERJECTION}[,\s]+|no[,\s]+|actually[,\s]+|sorry[,\s]+|and[,\s]+)*"
    r"(?:(?:what|how|why|who|where|when|which)(?:'s|\s+(?:else|exactly|long|much|many|often|"
    r"is|are|was|were|do|does|did|can|could|would|will|should|have|has))\b|can you|could you|"
    r"do you|will you|would you|are you)\b",
    _F,
)


def asks_something_else(message: str) -> bool:
    """Whether a reply is a question of its own ("wait, what else can you do?")."""
    return bool(_ASKS_SOMETHING_ELSE.match(_norm(message)))


def is_correction(message: str) -> bool:
    """Whether a reply corrects what was offered ("no, actually she's six", "sulfa, not
    penicillin", "I mean Tuesdays"), rather than stating something new. A question that asks
    for something else ("wait, what else can you do?") corrects nothing."""
    text = _norm(message)
    if _ASKS_SOMETHING_ELSE.match(text):
        return False
    return bool(_CORRECTION_LEAD.match(text) or _CORRECTION_ANYWHERE.search(text))


_AFFIRM = re.compile(
    r"^(?:oh[,\s]+|um+[,\s]+)*(?:yes|yeah|yea|yep|yup|ya|sure|correct|right|exactly|absolutely|"
    r"definitely|certainly|indeed|of course|ok|okay|k|perfect|great|good|fine|true|mhm+|"
    r"uh[- ]?huh|please|go ahead|go for it|do it|do that|sounds (?:good|right|great)|"
    r"that'?s (?:right|it|correct|the one|true|fine|good|perfect|accurate)|that is (?:right|"
    r"correct)|you got it|spot on|bingo|agreed|confirm(?:ed)?|that one|this one|all good|"
    r"totally|affirmative|aye|yes please|please do|forget it please|remove it|delete it)\b",
    _F,
)


def is_affirmation(message: str) -> bool:
    """Whether a reply says yes to what was asked, without correcting it."""
    text = _norm(message)
    return bool(_AFFIRM.match(text)) and not is_correction(text) and not is_rejection(text)


_NEGATIVE = frozenset(
    [
        *("no", "nope", "nah", "never", "don't", "dont", "not", "cancel", "skip"),
        *("scratch", "forget", "ignore", "stop", "nevermind"),
    ]
)
# Words a rejection is made of besides its negative: the rest of "no thanks, don't bother
# remembering that" is talk about the offer, not a new value.
_REJECTION_FILLER = frozenset(
    re.findall(
        r"\S+",
        """
        thanks thank you it that this please just actually ok okay oh um hmm well then all good
        eh meh ah uh lol hey so
        fine i i'm im do need to remember remembering save saving store storing keep keeping
        bother mind never forget about record note noting that's thats was only joking kidding
        saying one worry necessary needed want wanna rather prefer would you'd leave drop
        cancel skip scratch let's lets go ahead really sure nothing for now right there me the
        a an whole thing
        """,
    )
)


_REFUSAL = re.compile(
    r"\b(?:don'?t|do not|didn'?t|rather (?:you )?(?:not|didn'?t)|no need to|not worth|let'?s not|"
    r"shouldn'?t|won'?t need to|please don'?t|prefer (?:you )?(?:not|didn'?t))\s+(?:\w+\s+){0,2}?"
    r"(?:store|save|saving|remember|remembering|keep|keeping|note|noting|record|track|bother)\b"
    r"(?! (?:me|him|her|them|us)\b)|\bnever ?mind\b|\bforget (?:it|that|i said|about it|i "
    r"mentioned)\b|\bscratch that\b|\bskip (?:it|that)\b|\bdrop it\b|\bleave it\b|"
    r"\b(?:just|only|was) (?:joking|kidding|venting)\b|\bignore (?:that|it|me)\b",
    _F,
)


_YES_FIRST = re.compile(r"^(?:yes|yeah|yep|yup|sure|please|go ahead|do it|correct)\b", _F)


def is_rejection(message: str) -> bool:
    """Whether a reply rejects an offer outright ("never mind", "nah no need to keep that,
    it's a one-off") rather than correcting it. "No, just shrimp" and "no, just this project"
    are not rejections."""
    words = _words(message)
    if not words or len(words) > 16 or _YES_FIRST.match(_norm(message)):
        return False  # "yes, drop it" answers a retraction question with yes
    if _REFUSAL.search(_norm(message)):
        return True
    if len(words) > 12:
        return False
    if not any(w in _NEGATIVE for w in words):
        return False
    return all(w in _NEGATIVE or w in _REJECTION_FILLER for w in words)


_SCOPE_TO_PROJECT = re.compile(
    r"\bkeep (?:it|that|this) (?:to|in|for|within)\b|"
    r"\b(?:just|only|keep (?:it|that|this)|leave (?:it|that))\b[^.?!]*\b(?:this|here|the)\s*"
    r"(?:project|one|recipe|build|trip|plan)?\b|\bthis project only\b|\bnot (?:across|everywhere|"
    r"globally|for all|in all|for my other|in my other)\b|\b(?:only|just) (?:here|for this)\b",
    _F,
)


_NAME_FILLER = frozenset(
    ["a", "an", "the", "of", "for", "and", "to", "in", "on", "at", "my", "our", "your", "with"]
)


def limits_to_project(message: str, project_name: str = "") -> bool:
    """Whether a reply keeps an offered fact to this project ("no, just this project", or
    "just for the lessons" in the project "Spanish lessons")."""
    text = _norm(message)
    if not _SCOPE_TO_PROJECT.search(text) and not re.search(r"\b(?:just|only)\b", text, _F):
        return False
    # "keep that to EP" in "Band EP recording": any word of the name but a function word
    named = set(_words(project_name)) - _NAME_FILLER
    return bool(re.search(r"\b(?:project|here|this one|this)\b", text, _F)) or bool(
        named & set(_words(text))
    )


_FORGET_FRAMING = re.compile(
    r"^(?:(?:ok(?:ay)?|hey|so|also|and|actually|oh|um+|please|pls|kindly|can you|could you|"
    r"would you|will you|i want you to|i'd like you to|you can|you should|go ahead and|"
    r"feel free to|no|nah|nope)[,\s]+)*"
    r"(?:forget|delete|remove|erase|drop|scrub|wipe|clear|unlearn|"
    # "bin that", never "bin day is thursday"
    r"(?:bin|ditch|scrap)(?= (?:that|it|this|those|these|the|my|all|everything)\b)|"
    r"stop remembering|"
    r"stop keeping|stop storing|stop using|no longer remember|don't remember|do not remember|"
    r"don't keep|no need to remember|you don't need to (?:remember|know)|"
    # A wish rather than an order: "I'd rather you didn't remember that ..."
    r"i(?:'d| would) (?:rather|prefer(?: it if)?) you (?:didn't|did not|not|wouldn't|don't) "
    r"(?:remember|keep|know|store|hold on to|hang on to)|"
    r"i (?:don't|do not) want you (?:to )?(?:remember|keep|know|stor(?:e|ing)|"
    r"hold(?:ing)? on to|hang(?:ing)? on to|remembering|keeping|knowing)|"
    # "i don't want that kept"
    r"i (?:don't|do not) want (?:that|it|this) (?:kept|stored|saved|remembered|on file))\b",
    _F,
)
_REMEMBER_FRAMING = re.compile(r"\bdon'?t forget\b|\bdo not forget\b|\bnever forget\b", _F)


def forget_object(message: str) -> str:
    """What a forget request is about: "Please forget that I'm a new dad" -> "I'm a new dad"."""
    text = _norm(message)
    found = _FORGET_FRAMING.match(text)
    body = text[found.end() :] if found else text
    body = re.sub(
        r"^\s*(?:about\s+)?(?:(?:the\s+)?(?:note|fact|thing|bit|part)s?\s+(?:that|about)\s+|that\s+)?",
        "",
        body,
        flags=_F,
    )
    return body.strip(" ,.;:!?")


def asks_to_forget(message: str) -> bool:
    """Whether the message is framed as a request to forget or delete something ("Please
    forget that I'm a new dad"); "don't forget that ..." asks to remember."""
    text = _norm(message)
    return bool(_FORGET_FRAMING.match(text)) and not _REMEMBER_FRAMING.search(text)


_RESTORE_FRAMING = re.compile(
    r"\b(?:put|bring|add|get)\b[^.?!]{0,60}\bback\b|\brestore\b|\bundo\b|\bun-?retract\b|"
    r"\bunforget\b|\breinstate\b|\bremember (?:it|that) again\b",
    _F,
)


def asks_to_restore(message: str) -> bool:
    """Whether the message asks to put back something that was retracted."""
    return bool(_RESTORE_FRAMING.search(_norm(message)))


_FIRST_PERSON = re.compile(r"^(?:that\s+)?(?:i|i'm|im|i've|i'd|i'll|my|me|mine)\b", _F)


def is_first_person_clause(text: str) -> bool:
    """Whether a description is a statement about the speaker ("I go bouldering on Sundays")."""
    return bool(_FIRST_PERSON.match(_norm(text)))


_BROAD_RECALL = re.compile(
    r"\b(?:what|everything|anything|all|remind me|tell me|show me|list)\b[^?]*\b(?:know|remember|"
    r"have|got|stored|noted|kept|on file|on record|saved|told you|said)\b[^?]*\b(?:about|on) "
    r"(?:me|myself|us)\b(?! and this)|\bwhat do you (?:know|remember)\s*\??$|"
    r"\b(?:list|show|tell me)\b[^?]*\b(?:what you know|what you remember|my (?:facts|"
    r"memory|memories))\b(?! (?:for|in|about) (?:this|the) project)|\bwhat have i told you\b|"
    r"\bwhat(?:'s| is) in your memory\b|"
    r"\bwhat do you have on me\b",
    _F,
)


def asks_everything(query: str) -> bool:
    """Whether a recall question asks for everything known, not one thing."""
    return bool(_BROAD_RECALL.search(_norm(query)))


_OFFER_ASKS = re.compile(
    r"\?|\b(?:want me to|should i|shall i|would you like|do you want|is that right|"
    r"is that correct|did i get that right|let me know)\b",
    _F,
)
_CROSS_PROMOTION = re.compile(
    r"\b(?:across|in|for|to|into) (?:all )?(?:of )?your (?:other )?(?:projects|engagements)\b"
    r"|\b(?:every|any|all) (?:of )?your projects\b|\beverywhere\b|\bbeyond this (?:project|one)\b"
    r"|\bother projects\b|\bacross projects\b|\bpersonal (?:memory|notes|facts)\b"
    r"|\bremember (?:that|this|it) (?:about|for) you\b|\bglobally\b|\bgenerally\b",
    _F,
)


def is_cross_promotion_offer(companion_text: str) -> bool:
    """Whether a companion turn offers to remember something across all projects."""
    return bool(_CROSS_PROMOTION.search(companion_text)) and bool(
        _OFFER_ASKS.search(companion_text)
    )


_LEAD_CUE = re.compile(
    r"^(?:(?:no|nope|nah|not that(?: one)?|not quite|actually|sorry|i mean|i meant|wait|oops|"
    r"oh|um+|hmm+|rather|instead|make (?:that|it)|the other one|please|ok(?:ay)?)\b[\s,.:;!—–-]*)+",
    _F,
)
_TRAIL_CUE = re.compile(r"[\s,]+(?:instead|actually|then|please|rather)[\s.!]*$", _F)


def without_cues(text: str) -> str:
    """A description without the cue words around it: "no, my birthday instead" -> "my
    birthday"."""
    body = _LEAD_CUE.sub("", _norm(text))
    return _TRAIL_CUE.sub("", body).strip(" ,.;:!?")


_POSITION = re.compile(
    r"#\s*\d+|\b\d+\b|\b(?:first|second|third|fourth|fifth|last|latter|former|other)\b", _F
)


def names_a_position(text: str) -> bool:
    """Whether a reply picks a candidate by number or position ("the second one", "#3")."""
    return bool(_POSITION.search(_norm(text)))


_POSITION_WORDS = frozenset(
    ["first", "second", "third", "fourth", "fifth", "last", "latter", "former", "other", "one"]
)


def names_only_a_position(text: str) -> bool:
    """Whether a reply picks by number or position and says nothing else ("the second one")."""
    return names_a_position(text) and not keywords(without_cues(text)) - _POSITION_WORDS
