"""Sentence forms that decide an intent before the embedding does.

The nearest-examples scorer groups messages by topic; a few English forms say what a message
asks for regardless of topic: "what do you know about me?" asks for recall, "what else can you
do?" asks about capabilities, "Keep the runs flat, my hip flares up" instructs the project.
"""

from __future__ import annotations

import re

from pipeline.intents.cues import asks_everything, asks_to_forget
from pipeline.providers.local.language import words

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


def form_intent(message: str, has_project: bool) -> str | None:
    """The intent a message's form decides, or None to leave it to the embedding."""
    text = message.replace("’", "'").strip()
    if _JUST_ASKING.search(text):
        return "general_conversation"
    if asks_everything(text):
        return "ask_about_past_input"
    if _CAPABILITY.search(text):
        return "describe_capabilities"
    if has_project and _IMPERATIVE.match(text) and not _NOT_AN_INSTRUCTION.search(text):
        return "add_knowledge" if not asks_to_forget(text) and len(words(text)) >= 4 else None
    return None
