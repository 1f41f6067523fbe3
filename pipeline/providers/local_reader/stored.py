"""A span the trained reader chose, in the form memory stores.

The reader decides what a message does and where; these functions only restate a chosen span
("I'm allergic to kiwi" -> "You're allergic to kiwi"), name a status's topic, and read a note
number out of a reference ("lock in #3"). None of them decides an intent or a relation.
"""

from __future__ import annotations

import re

from pipeline.english.extract import note_reference, to_second_person
from pipeline.english.status import detect_status
from pipeline.reading import StatusReport

_EDGES = " ,;:.!?-–—\"'“”‘’"
# Possessives and articles that open a subject but do not name it ("my phone" -> "phone").
_OPENERS = {"my", "the", "our", "a", "an", "his", "her", "their", "your"}
_BE = re.compile(r"\s(?:is|are|was|were|has|have|had|will|won't|isn't|aren't|got|'s|'re)\b", re.I)


def clean(span: str) -> str:
    """The span without the punctuation and quotes at its edges, spacing made single."""
    return " ".join(span.split()).strip(_EDGES)


def act_params(intent: str, span: str, message: str = "") -> dict[str, str]:
    """The parameters of an act of `intent` whose span is `span` ("" for a spanless act:
    the whole message stands for what it describes)."""
    text = clean(span)
    if intent == "remember_about_me":
        return {"personal_fact": to_second_person(text)} if text else {}
    if intent == "add_knowledge":
        return {"knowledge": text[:1].upper() + text[1:]} if text else {}
    if intent == "forget_about_me":
        # no span: "bring it back" names what was just forgotten, as "that" does
        return {"forget_description": text or "that"}
    if intent == "ask_about_past_input":
        return {"query": text} if text else {}
    if intent == "commit_knowledge":
        return {"knowledge_reference": text or note_reference(message)}
    if intent == "retract_knowledge":
        return {"knowledge_description": text or note_reference(message)}
    return {}


def status_report(span: str) -> StatusReport | None:
    """A status span as the report the core notes: its topic, and its text in the second
    person ("phone screen is cracked" -> topic "phone screen")."""
    text = clean(span)
    if not text:
        return None
    found = detect_status(text)
    if found:
        return StatusReport(topic=found[0].topic, text=found[0].text)
    return StatusReport(topic=_topic(text), text=to_second_person(text))


def _topic(text: str) -> str:
    """The words before the first verb of being or having, without an opening possessive."""
    cut = _BE.search(text)
    words = (text[: cut.start()] if cut else text).split()
    while len(words) > 1 and words[0].casefold() in _OPENERS:
        words = words[1:]
    return " ".join(words[:4]) or text.split()[0]
