"""Parameter extraction: strip conversational framing, and restate personal facts as "you".

Personal facts are stored in the second person, as the companion would say them back:
"Just so you know, I'm vegetarian" -> "You're vegetarian"; "My wife keeps kosher" ->
"Your wife keeps kosher". The memory block reads "Things you've told me about yourself:
- You're vegetarian", and the responder's "I'll remember that you're vegetarian" follows.
Project knowledge keeps the operator's own words, minus framing.
"""

from __future__ import annotations

import re

from pipeline.english.facts import says_something
from pipeline.english.language import wordset
from pipeline.english.shorthand import read_shorthand, you_form

_FLAGS = re.IGNORECASE

# Framing that opens a statement without being part of the fact. Applied repeatedly, so
# "Oh, and just so you know, ..." loses both layers.
_LEAD_FRAMING = re.compile(
    r"^\s*(?:"
    r"(?:oh|ok|okay|so|well|hey|hi|also|and|anyway|alright|right|btw|fyi|ps|p\.s\.)\b"
    r"|just (?:so|to let) you (?:know|are aware|'re aware)(?: that)?"
    r"|so you know(?: that)?"
    r"|for your (?:info|information)|for what it'?s worth|for the record|for (?:future )?reference"
    r"|(?:a )?(?:quick )?heads[- ]up|by the way|one (?:more )?thing|quick note|side note"
    r"|(?:please )?(?:make a )?note(?: that|:)?|please note(?: that)?"
    r"|(?:please )?(?:keep|bear) in mind(?: that)?"
    r"|(?:(?:can|could|would) you |please |i (?:want|need|'d like) you to |you should )?"
    r"(?:remember|know|note|don'?t forget)(?: this| that|:)?(?= )"
    r"|(?:i )?(?:should|must|have to|wanted to|want to|need to) "
    r"(?:mention|tell you|say|let you know)(?: that)?"
    r"|(?:before (?:you suggest anything|we start|we begin|anything else)"
    r"|in case it (?:matters|helps)"
    r"|if it (?:matters|helps)|worth knowing|something (?:you should know|to know)"
    r"|(?:it'?s )?worth (?:noting|mentioning)|to be clear|important)(?: that)?"
    r"|(?:for|in) (?:this|the) (?:project|recipe|build|trip|plan|job)"
    r"|please|just"
    r")\s*[,:;.!—–-]*\s*",
    _FLAGS,
)
_TRAIL_FRAMING = re.compile(
    r"\s*[,;:.—–-]*\s*(?:"
    r"just so you know|for (?:future )?reference|for what it'?s worth|fyi|btw|by the way"
    r"|(?:so |please )?(?:keep|bear) (?:that|this|it) in mind(?: from now on)?"
    r"|(?:so |please )?factor (?:that|this|it) in(?: from now on)?"
    r"|(?:please )?remember (?:that|this)|(?:in case|if) (?:that|it) (?:matters|helps)"
    r"|from now on|going forward|thanks|thank you|please|ok\??|okay\??"
    r")\s*[.!]*\s*$",
    _FLAGS,
)

_SWAP = {
    "i": "you",
    "i'm": "you're",
    "im": "you're",
    "i've": "you've",
    "ive": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "we": "you",
    "we're": "you're",
    "we've": "you've",
    "we'd": "you'd",
    "we'll": "you'll",
    "us": "you",
    "our": "your",
    "ours": "yours",
    "ourselves": "yourselves",
    "am": "are",
}
_WAS_AFTER = {"i": "were", "we": "were"}
_YOU_OBJECT_BEFORE = wordset(
    "to for with at from by about of on into like than help tell give show send ask"
)
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|[^A-Za-z]+")


def _case_like(word: str, source: str) -> str:
    if source[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def to_second_person(text: str, capitalize: bool = True) -> str:
    """Restate the operator's first person as the companion's "you" (and "you" as "I"/"me")."""
    pieces = _TOKEN.findall(text)
    # where shorthand stands as a whole word ("u", never the "u" of "u2")
    shorthand = {start for start, *_ in read_shorthand(text).edits}
    out: list[str] = []
    previous = said = ""
    at = 0
    for index, piece in enumerate(pieces):
        at, start = at + len(piece), at
        if not piece[:1].isalpha():
            out.append(piece)
            continue
        key = piece.lower().replace("’", "'")
        replacement = piece
        if key in _SWAP and not (key == "am" and previous not in ("i", "we")):
            replacement = _SWAP[key]
        elif key == "was" and previous in _WAS_AFTER:
            replacement = _WAS_AFTER[previous]
        elif key in ("you", "your", "yours", "you're", "you've", "yourself"):
            replacement = _you_to_me(key, previous, pieces[index + 1 :])
        elif start in shorthand and (spoken := _you_typed(key, pieces[index + 1 :])):
            # the companion's "u" / "ur" in a fact is voiced as its "you" / "your" would be
            replacement = _you_to_me(spoken, previous, pieces[index + 1 :])
        elif key == "r" and previous == "u" and said == "I":
            replacement = "am"  # "my sister says u r great" -> "... I am great"
        # "I" and "I'm" are capitalised by grammar, not emphasis: "says I'm" -> "says you're"
        if replacement != piece and not replacement.startswith("I") and key.split("'")[0] != "i":
            replacement = _case_like(replacement, piece)
        out.append(replacement)
        previous, said = key, replacement
    result = "".join(out)
    return result[:1].upper() + result[1:] if capitalize else result


def _you_typed(key: str, rest: list[str]) -> str | None:
    following = "".join(rest).lstrip(' .,;:!?)"')
    return you_form(key, following)


def _you_to_me(key: str, previous: str, rest: list[str]) -> str:
    if key == "your":
        return "my"
    if key == "yours":
        return "mine"
    if key == "yourself":
        return "myself"
    if key == "you're":
        return "I'm"
    if key == "you've":
        return "I've"
    following = next((p for p in rest if p.strip()), "")
    if previous in _YOU_OBJECT_BEFORE or not following[:1].isalpha():
        return "me"
    return "I"


def strip_framing(text: str) -> str:
    """The statement without the framing around it ("just so you know", "remember that").
    The framing is read past texting shorthand ("plz remember ... thx" frames as "please
    remember ... thanks" does); the statement is kept as typed."""
    typed = " ".join(text.split())
    reading = read_shorthand(typed)
    start, end = reading.typed_span(*_statement_span(reading.read))
    return typed[start:end].strip(" ,;:.!—–-")


def _statement_span(text: str) -> tuple[int, int]:
    """Where the statement lies in a text once its framing, layer by layer, is taken off."""
    start, end = 0, len(text)
    for _ in range(4):
        lead = _LEAD_FRAMING.match(text[start:end])
        new_start = start + (lead.end() if lead else 0)
        trail = _TRAIL_FRAMING.search(text[new_start:end])
        new_end = new_start + trail.start() if trail else end
        if (new_start, new_end) == (start, end) or not text[new_start:new_end].strip():
            break
        start, end = new_start, new_end
    return start, end


def personal_fact(message: str) -> str:
    """The personal fact a message states, in the second person."""
    body = strip_framing(message) or message.strip()
    return to_second_person(body).rstrip(" .!")


def knowledge(message: str) -> str:
    """Project knowledge in the operator's words, without framing."""
    body = strip_framing(message) or message.strip()
    return body[:1].upper() + body[1:]


_FORGET_VERBS = re.compile(
    r"^\s*(?:(?:please|kindly|ok|okay|so|and|also|just|hey)\W+)*"
    r"(?:(?:can|could|would|will) you (?:please )?|i'?d like you to |i want you to |"
    r"i need you to |you can |you could |go ahead and |i changed my mind,? )?"
    r"(?:forget(?: about)?|unremember|unlearn|stop (?:remembering|storing|keeping|using|tracking)"
    r"|no longer (?:remember|keep|store)|don'?t (?:remember|keep|store)"
    r"|(?:erase|wipe|delete|remove|drop|scrap|scratch|clear|take out|get rid of|lose)"
    r"|i (?:don'?t|do not) want you to (?:remember|keep|know)"
    r"|i(?:'d| would) (?:rather|prefer(?: it if)?) you (?:didn'?t|did not|not|wouldn'?t|don'?t) "
    r"(?:remember|keep|know|store|hold on to|hang on to)"
    r"|you (?:don'?t|do not) (?:need|have) to (?:remember|keep|know))\b\s*",
    _FLAGS,
)
_FORGET_FILLER = re.compile(
    r"^(?:(?:that|about|(?:the )?(?:bit|part|thing|stuff|fact|note)s? (?:where|about|that|on)"
    r"|what (?:you know|you remember|i (?:told|said to) you|i said|i mentioned) about"
    r"|(?:everything|anything|all) (?:you know |i (?:told|said to) you |i said )?about"
    r"|(?:that )?i ever (?:mentioned|said|told you)|the fact that|i said)\s+)+",
    _FLAGS,
)
_FORGET_TRAIL = re.compile(
    r"(?:\s+(?:from|in|out of|off) (?:your|my|the) (?:memory|notes|records?|files?|list)"
    r"(?: about me)?|\s+(?:about me|anymore|any more|for good|please|now|too))+\s*$"
    r"|\s*[,;—–-]\s*(?:it'?s|it is|it was|i'?m|i am|i was|i'?ve|i'?ll|i have|that'?s|since|"
    r"because|as|they|we|i)\b.*$|[?.!]+\s*$",
    _FLAGS,
)


def first_sentence(text: str) -> str:
    """Up to the first sentence end that is followed by more text."""
    return re.split(r"(?<=[?.!])\s+(?=\S)", text, maxsplit=1)[0]


def forget_description(message: str) -> str:
    """What to forget, as said ("Forget that I live in Miami" -> "I live in Miami")."""
    body = first_sentence(" ".join(message.split()))
    body = _FORGET_VERBS.sub("", body, count=1)
    body = _FORGET_FILLER.sub("", body, count=1)
    for _ in range(3):
        trimmed = _FORGET_TRAIL.sub("", body).strip(" ,;:.!?")
        if trimmed == body:
            break
        body = trimmed
    return body or message.strip(" ?.!")


_QUERY_FRAME = re.compile(
    r"^\s*(?:(?:hey|so|ok|okay|quick question)\W+)*"
    r"(?:remind me(?:,)? (?:(?:what|of|about)(?: i (?:said|told you|mentioned|gave you)"
    r"(?: about)?)?)?|(?:do|did|can|could) you (?:remember|recall|look up)"
    r"|what (?:did|have) i (?:say|said|tell you|told you|mention|mentioned|give you|gave you)"
    r"(?: earlier| before)?|what do you (?:know|remember)|have i (?:told you|mentioned|said)"
    r"|did i (?:ever |already )?(?:tell you|mention|say|give you)|i told you something"
    r"|(?:search|look through|look in|go through|dig through|check|scan) "
    r"(?:my|our|your|the project(?:'s)?) (?:own )?"
    r"(?:notes|messages|conversations?|chats?|history|records)"
    r"(?:\s+(?:for|about|on) (?:what|anything) i (?:said|told you|mentioned|wrote))?)"
    r"\s*(?:about|regarding|on|for|that)?\s*",
    _FLAGS,
)


def query(message: str) -> str:
    """The topic of a question about past input ("what did I say about the pH?" -> "the pH")."""
    body = _QUERY_FRAME.sub("", " ".join(message.split()), count=1).strip(" ?.!,")
    return body or message.strip(" ?.!")


_NOTE_VERBS = re.compile(
    r"^\s*(?:(?:please|can you|could you|go ahead and|ok|okay|and|just)\W+)*"
    r"(?:remove|delete|drop|take out|take|scratch|strike|retract|withdraw|cross off|get rid of"
    r"|undo|clear|scrap|get|lock in|lock|commit|finali[sz]e|settle|confirm|mark|make|set)\b\s*",
    _FLAGS,
)
_NOTE_FILLER = re.compile(
    r"^(?:(?:the )?(?:note|entry|fact|bit|one|part)s? (?:about|on|for|regarding|with)\s+"
    r"|the\s+(?=note))",
    _FLAGS,
)
_NOTE_TRAIL = re.compile(
    r"\s*(?:(?:from|off|out of|in) (?:the |this |my )?(?:\w+ )?(?:project|notes?|list)(?: notes)?"
    r"|as (?:final|decided|settled|definite|permanent|done)|in stone|final|permanent"
    r")\s*[.!]*$|\s*[,;—–-]\s*(?:it|we|that|i)\b.*$",
    _FLAGS,
)


def note_reference(message: str) -> str:
    """Which project note a commit or retract request means: "#3", "all", or a description."""
    body = " ".join(message.split())
    numbers = re.findall(r"#\s?(\d+)|\b(?:note|number|entry|item) (\d+)", body, _FLAGS)
    if numbers:
        return " ".join(f"#{a or b}" for a, b in numbers)
    body = _NOTE_VERBS.sub("", body, count=1)
    body = _NOTE_FILLER.sub("", body, count=1)
    body = _NOTE_TRAIL.sub("", body).strip(" ,;:.!?")
    return body or message.strip(" ?.!")


_REMIND = re.compile(
    r"^.*?\b(?:remind me|reminder|ping me|nudge me|alert me)\b\s*(?:to\s+)?", _FLAGS
)
_WHEN = re.compile(
    r"\b(?:(?:tomorrow|tonight|today|this (?:morning|afternoon|evening|weekend))"
    r"|(?:next|on|every|this) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"week|month|evening|morning)s?|(?:at|by|before|after) \d{1,2}(?::\d\d)?\s*(?:am|pm)?"
    r"|in \d+ (?:minutes?|hours?|days?)|at (?:noon|midnight|lunch))\b",
    _FLAGS,
)
_FORMATS = ("pdf", "csv", "markdown", "json", "html", "excel", "spreadsheet", "word", "zip", "text")


def stub_params(intent: str, message: str) -> dict[str, str]:
    """Best-effort parameters of the stub intents (they change nothing)."""
    text = " ".join(message.split())
    if intent == "set_reminder":
        when = _WHEN.search(text)
        reminder = _REMIND.sub("", text, count=1)
        if when:
            reminder = reminder.replace(when.group(0), "")
        params = {"reminder": " ".join(reminder.split()).strip(" ,.?!")}
        if when:
            params["when"] = when.group(0)
        return params
    if intent == "web_search":
        return {"query": text.strip(" ?.!")}
    if intent == "share_project":
        found = re.search(
            r"\b(?:with|to|give|invite|let|grant|add)\s+((?:my |the )?[\w'-]+(?: [A-Z]\w+)?)", text
        )
        return {"recipient": found.group(1)} if found else {}
    if intent == "export_project":
        lowered = text.lower()
        chosen = next((f for f in _FORMATS if re.search(rf"\b{f}\b", lowered)), None)
        return {"format": chosen} if chosen else {}
    return {}


def params_for(intent: str, message: str) -> dict[str, str]:
    """The parameters of `intent` found in a fresh (non-continuation) message."""
    if intent == "remember_about_me":
        fact = personal_fact(message)
        # "remember that" alone states nothing: no fact, rather than the request as one
        return {"personal_fact": fact} if says_something(fact) else {}
    if intent == "add_knowledge":
        return {"knowledge": knowledge(message)}
    if intent == "forget_about_me":
        return {"forget_description": forget_description(message)}
    if intent == "ask_about_past_input":
        return {"query": query(message)}
    if intent == "commit_knowledge":
        return {"knowledge_reference": note_reference(message)}
    if intent == "retract_knowledge":
        return {"knowledge_description": note_reference(message)}
    return stub_params(intent, message)
