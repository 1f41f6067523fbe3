"""Sentence forms that decide an intent before the embedding does.

The nearest-examples scorer groups messages by topic; a few English forms say what a message
asks for regardless of topic: "what do you know about me?" asks for recall, "what else can you
do?" asks about capabilities, "Keep the runs flat, my hip flares up" instructs the project.
"""

from __future__ import annotations

import re

from pipeline.english.cues import asks_everything, asks_to_forget
from pipeline.english.language import words

_F = re.IGNORECASE
_CAPABILITY = re.compile(
    r"\bwhat (?:else |exactly |sorts? of things |kinds? of things |things )?(?:can|could) "
    r"(?:you|this|it)\b(?! (?:know|remember|have|tell|think|recommend|suggest)\b)|"
    r"\bwhat (?:else |exactly )?(?:do|does) (?:you|this|it) do\b|"
    r"\bwhat (?:exactly )?are you (?:\w+ )?(?:good )?for\b|"
    r"\bwhat(?:'s| is) the deal\b|\bhow (?:do|does) (?:you|this|it) work\b|"
    r"\bhow (?:do|can|would|could) i (?:get|make|ask|have) you to\b|"
    r"\bwhat (?:sorts?|kinds?) of things\b|\b(?:can|could|would|will) (?:i|you)\b[^?]*"
    r"\b(?:get you to|have you|make you|ask you to)\b[^?]*\b(?:forget|drop|remember|delete)\b",
    _F,
)
# A yes/no question about what the companion can do at all, rather than a request to do one
# thing: "are you able to remember things between projects?", "can you set reminders?" (a
# bare plural: the kind of task, not a task), "can you book things or just take notes?".
_ABLE = re.compile(
    r"\b(?:are|were) you (?:even |also |actually )?(?:able|allowed|designed|built|meant) to\b|"
    r"\bis it possible for you to\b|\bdo you have (?:the ability|a way) to\b",
    _F,
)
_CAN_YOU = re.compile(
    r"^(?:(?:so|and|but|wait|also|hey|ok(?:ay)?|quick question)[,\s]+)*"
    r"(?:can|could|do|will) (?:you|this|it) ",
    _F,
)
# An assistant's kind of task, named by a verb and a bare plural ("set reminders").
_KIND_OF_TASK = re.compile(
    r" (?:also |even |actually )?(?:set|send|book|schedule|track|store|save|keep|handle|manage|"
    r"make|take|read|write|edit|do|remember|search|summari[sz]e|translate|sync|share|export|"
    r"organi[sz]e|create|remind|plan|answer|check|look up|find)"
    r" (?:(?!this\b|his\b|its\b|yours\b)\w+[^s\W]s|things|stuff|anything)"
    r"(?: (?:too|as well|at all))?\s*\?*$",
    _F,
)
_OR_JUST = re.compile(r"\bor (?:do you |can you |are you |is it )?(?:just|only)\b", _F)
_GENERIC_OBJECT = re.compile(r"\b(?:things|stuff|anything|everything|in general|at all)\b", _F)
_SPEAKER = frozenset(["i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "our", "us"])


def _asks_what_you_can_do(text: str) -> bool:
    """A yes/no capability question, about a kind of task rather than one task."""
    said = words(text)
    if len(said) > 16:
        return False
    if _OR_JUST.search(text) and text.lower().startswith(("can ", "could ")):
        return True
    if _ABLE.search(text):
        return bool(_GENERIC_OBJECT.search(text))
    found = _CAN_YOU.match(text)
    if found is None or _SPEAKER & set(said):
        return False
    return bool(_KIND_OF_TASK.fullmatch(text[found.end() - 1 :]))


# "I'd rather you didn't remember that I'm on antidepressants": a wish that something is not
# kept is a request to forget it, whatever words it shares with facts to remember.
_WISH_NOT_KEPT = re.compile(
    r"\bi(?:'d| would) (?:rather|prefer(?: it if)?) you (?:didn't|did not|not|wouldn't|don't) "
    r"(?:remember|keep|know|store|hold on to|hang on to)\b|"
    r"\bi (?:don't|do not) want you (?:to )?(?:remember|keep|know|stor(?:e|ing)|"
    r"hold(?:ing)? on to|hang(?:ing)? on to|remembering|keeping|knowing)\b",
    _F,
)


# A project instruction opens with a verb in the imperative ("Keep the long runs flat",
# "Only pick hotels with step-free access", "Plan every dinner meat-free").
_IMPERATIVE = re.compile(
    r"^(?:please |always |never |only |just |also |and )*"
    r"(?!keep (?:it|that|this)\b|(?:give|get|show|tell|let|help|send) (?:me|us)\b)"
    r"(?:plan|keep|use|set|pick|schedule|"
    r"bake|make|add|avoid|skip|cook|put|book|buy|get|plant|water|paint|cut|run|train|include|"
    r"leave|give|try|aim|stick|swap|replace|double|halve|limit|cap|start|finish|target|mount|"
    r"hang|build|install|order|choose|go|stay|budget|allow|assume|plan|prep|serve|season|"
    r"bring|pack|reserve|route|write|translate|spell|record|mix|tune|space|sow|prune|feed|"
    r"fertili[sz]e|stake|seat|design|size|fit|frame|tile|lay|sand|seal|prefer|make sure|"
    r"remember to|factor in|account for|work around|design around|cater for)\b",
    _F,
)
# Requests that an imperative may also make, which belong to other intents.
_NOT_AN_INSTRUCTION = re.compile(
    r"\b(?:share|export|remind|look up|search|list|show|remove|delete|forget|lock|commit|"
    r"download|invite|send|get rid of|drop|scrap|ditch|bin|toss|erase|undo|restore|"
    r"(?:give|grant) (?:\w+ ){0,3}access|"
    r"rundown|summary|overview|"
    r"(?:put|bring|get) (?:\w+ ){0,4}back)\b",
    _F,
)


# A negated or hypothetical statement made only to ask ("I don't have any allergies, I was
# only wondering") stores nothing.
_JUST_ASKING = re.compile(
    r"\b(?:i was|i'm|im) (?:(?:only|just) (?:wondering|asking|curious)|wondering|curious)\b|"
    r"\bjust curious\b|"
    r"\bhypothetically\b|\bout of curiosity\b",
    _F,
)


# "remember my locker code is 4411": a request to remember a statement about the speaker,
# whatever topic the nearest examples file it under ("remember I told you ..." asks instead).
_REMEMBER_ABOUT_ME = re.compile(
    r"^(?:(?:please|pls|plz|can you|could you|also|and|oh and|btw|fyi|hey|ok so)[,\s]+)*"
    r"(?:remember|note|keep in mind|make a note)(?: that|:|,)?\s+"
    r"(?:my\s+\S+(?:\s+\S+){0,4}?\s+(?:is|are|was|were|has|have|'s)\b"
    r"|(?:i'm|i am|i've|i have|i)\s+(?!told|said|mentioned|asked|wrote|gave)\w+)",
    _F,
)


# Text the person passes on for someone else ("my boss said to tell you: ...", "a guy on
# reddit said to paste this in: ...") is never the person's own statement: nothing is stored
# from it, whatever it claims.
_RELAYED = re.compile(
    r"\b(?:told|asked|wants?|wanted|said|says)(?: me)? (?:i should |to )(?:paste|send|forward|"
    r"copy|give|pass on|pass along|tell|say to|type|enter|put)\b(?: (?:this|it|that|in|to))*"
    r"(?: (?:you|in here|here))?"
    r"|\b(?:paste|pasting|copy(?:ing)?|copied|forward(?:ing|ed)?) (?:this|these|the following|"
    r"it)(?: [\w']+){0,4}?\s*[:\-—–]",
    _F,
)
# Outside a project, what someone else wrote or sent, quoted ("here's what my doctor wrote:
# ..."), is theirs, not a fact the person states.
_PASSED_ON = re.compile(
    r"^(?:(?:so|ok|okay|hey|and)[,\s]+)*(?:here'?s|here is|this is) (?:what|the (?:message|"
    r"email|text|note)) (?:\w+ ){0,3}(?:wrote|said|sent|posted|texted|emailed|put)\b[^:]{0,40}:",
    _F,
)


# Searching what was said here is recall, not a web search: "search my notes for ...".
_SEARCH_OWN_WORDS = re.compile(
    r"^(?:(?:please|can you|could you|hey|so)[,\s]+)*"
    r"(?:search|look through|look in|go through|dig through|check|scan) "
    r"(?:my|our|your|the project(?:'s)?) "
    r"(?:own )?(?:notes|messages|conversations?|chats?|history|records)\b",
    _F,
)


def form_intent(message: str, has_project: bool) -> str | None:
    """The intent a message's form decides, or None to leave it to the embedding."""
    text = message.replace("’", "'").strip()
    if _JUST_ASKING.search(text) or _RELAYED.search(text):
        return "general_conversation"
    if not has_project and _PASSED_ON.match(text):
        return "general_conversation"
    if _WISH_NOT_KEPT.search(text) and not has_project:
        return "forget_about_me"
    if asks_everything(text) or _SEARCH_OWN_WORDS.match(text):
        return "ask_about_past_input"
    if _CAPABILITY.search(text) or _asks_what_you_can_do(text):
        return "describe_capabilities"
    if not has_project and _REMEMBER_ABOUT_ME.match(text) and not text.endswith("?"):
        return "remember_about_me"
    if has_project and _IMPERATIVE.match(text) and not _NOT_AN_INSTRUCTION.search(text):
        return "add_knowledge" if not asks_to_forget(text) and len(words(text)) >= 4 else None
    return None
