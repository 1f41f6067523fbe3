"""The English cues the local rule reader reads a fresh message by: whether it names every
offer, speaks of the speaker, withdraws or puts back something, or adds to what came before.
Read by pipeline/providers/local/classifier.py; the core never imports it."""

from __future__ import annotations

import re

EVERY_OFFER = re.compile(r"\b(?:both|all of (?:them|those|these)|all three|each of them)\b", re.I)
ABOUT_SPEAKER = re.compile(r"\b(?:i|i'm|i've|my|we|we're|we've|our)\b", re.IGNORECASE)
# Words by which a message withdraws something (a negation, a verb of removing) or puts
# back what was withdrawn.
WITHDRAWS = re.compile(
    r"\b(?:no|not|never|don't|dont|do not|doesn't|won't|shouldn't|stop|forget|drop|remove|"
    r"delete|erase|wipe|clear|lose|scrap|ditch|bin|toss|get rid|rid of|anymore|any more|"
    r"rather|prefer|unsee|retract|withdraw|take (?:\w+ ){0,3}(?:out|off|back|away)|"
    r"cancel|undo|strike|cross (?:\w+ )?(?:out|off)|throw|purge|out of|"
    # putting back what was withdrawn is the same intent's (`restore`)
    r"back|restore|reinstate|undelete|recover)\b|n't\b",
    re.IGNORECASE,
)
ADDITION = re.compile(r"^\s*(?:oh,? )?(?:and|also|plus|as well as)\b[\s,]*(?:also\s+)?", re.I)
