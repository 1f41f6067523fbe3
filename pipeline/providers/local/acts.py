"""What the local rule reader adds to a classification beyond its intent: the profile field a
stated fact changes, and the status reports the message makes, as acts of their own."""

from __future__ import annotations

from pipeline.domain import ProfileField
from pipeline.english.lexicon import ENGLISH
from pipeline.english.status import detect_status
from pipeline.memory.profile_fields import read_field
from pipeline.reading import Act, ClassifiedIntent, StatusReport


def with_status(classified: ClassifiedIntent, message: str) -> ClassifiedIntent:
    """The status reports the message makes, read by the English detector, as acts of their
    own after the message's other acts (the core notes them). A message that is only chat
    besides is its status reports alone ("phone's cracked, fixing it saturday" is one act)."""
    reports = detect_status(message)
    if not reports:
        return classified
    noted = tuple(
        Act(intent="general_conversation", status=StatusReport(topic=r.topic, text=r.text))
        for r in reports
    )
    acts = classified.all_acts()
    if len(acts) == 1 and acts[0] == Act(intent="general_conversation"):
        return classified.model_copy(update={"acts": noted})
    return classified.model_copy(update={"acts": (*acts, *noted)})


def with_profile_field(classified: ClassifiedIntent) -> ClassifiedIntent:
    """The reading of which sensitive profile field a stated fact changes, by the English
    wording patterns (NONE when they name none); a confirmation states no fact of its own, so
    the offer keeps the field it was held with."""
    if classified.intent != "remember_about_me":
        return classified
    reading = classified.reading
    fact = classified.params.get("personal_fact") or (reading.corrected if reading else "")
    if not fact:
        return classified
    field = read_field(fact, ENGLISH) or ProfileField.NONE
    return classified.model_copy(update={"profile_field": field})
