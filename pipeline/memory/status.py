"""Status notes: the rules for what a note may be, and the lines the responder is shown.

A note says where an ongoing thing stands, as the person reported it ("the car is at the
shop until Friday"). Its topic is the thing ("car"), spelled the same way every time so a
later report on it replaces the earlier one. Notes are bounded so the part of the prompt that
shows them stays small however much is reported: at most MAX_NOTES current notes of at most
MAX_TEXT_CHARS each (a budget of about MAX_NOTES * MAX_TEXT_CHARS / 4 tokens).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.errors import InvalidMessage
from pipeline.memory.relative_time import relative_time
from pipeline.store.status import StatusNote, current_notes, put_note

MAX_NOTES = 12
MAX_TOPIC_CHARS = 40
MAX_TEXT_CHARS = 200
KEEP_REPLACED = 50  # history kept a person, oldest deleted first

_NOT_WORD = re.compile(r"[^\w\s'-]+")


def topic_key(topic: str, openers: Collection[str] = ()) -> str:
    """The topic as stored: lower case, single spaces, without the `openers` it starts with
    (a lent lexicon's articles and possessives, pipeline/lexicon.py): with English lent,
    "My Car" and "the car" are the same topic."""
    words = " ".join(_NOT_WORD.sub(" ", topic).split()).casefold().split(" ")
    start = 0
    while start < len(words) - 1 and words[start] in openers:
        start += 1
    return " ".join(words[start:])[:MAX_TOPIC_CHARS].strip()


@dataclass(frozen=True)
class NoteInput:
    """A checked note: its topic key and its text, both within bounds."""

    topic: str
    text: str


def checked_note(topic: str, text: str, openers: Collection[str] = ()) -> NoteInput:
    """A note within the rules, or InvalidMessage naming what is wrong; `openers` as for
    `topic_key`."""
    key = topic_key(topic, openers)
    if not key:
        raise InvalidMessage("the status note has no topic", "name the thing it is about")
    clean = " ".join(text.split())
    if not clean:
        raise InvalidMessage(f"the status note on {key!r} has no text", "say where it stands")
    if len(clean) > MAX_TEXT_CHARS:
        cut = clean[: MAX_TEXT_CHARS - 1]
        clean = (cut[: cut.rindex(" ")] if " " in cut else cut).rstrip() + "…"
    return NoteInput(key, clean)


def write_note(
    session: Session,
    person_id: int,
    note: NoteInput,
    *,
    at: datetime,
    written_by: str,
    source_turn_id: int | None = None,
) -> StatusNote:
    """Store a checked note as its topic's current one (within the bounds)."""
    return put_note(
        session,
        person_id,
        note.topic,
        note.text,
        at=at,
        written_by=written_by,
        source_turn_id=source_turn_id,
        keep_current=MAX_NOTES,
        keep_replaced=KEEP_REPLACED,
    )


def note_lines(notes: list[StatusNote], now: datetime) -> list[str]:
    """The lines the prompt shows, newest first: `topic: text (reported 2 days ago)`."""
    return [f"{n.topic}: {n.text} (reported {relative_time(n.created_at, now)})" for n in notes]


def shown_notes(session: Session | Connection, person_id: int, now: datetime) -> list[str]:
    """The person's current notes as the prompt shows them."""
    return note_lines(current_notes(session, person_id)[:MAX_NOTES], now)
