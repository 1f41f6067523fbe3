"""When a turn runs multi-fact extraction, and how many new facts it may still hold.

Only with the setting on, for a message classified remember_about_me that is longer than
`multi_fact_min_chars`, and while the person's facts held by extraction in the last 24 hours
are under `multi_fact_daily_cap`: the cap is checked before the model is asked, so it bounds
the cost as well as the writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pipeline.extraction.extract import Extracted, extract_facts
from pipeline.intents.remember import INTENT, MAX_WRITES_PER_TURN
from pipeline.lexicon import Lexicon
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator
from pipeline.reading import ClassifiedIntent
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.events import Node, event_counts
from pipeline.turn_events import EXTRACTED

DAY = timedelta(hours=24)


@dataclass(frozen=True)
class TurnExtraction:
    """The candidates a turn's handler may hold, its room for new facts, and the pass itself."""

    candidates: tuple[str, ...] = ()
    room: int = 0
    extracted: Extracted | None = None
    skipped: str | None = None  # why no pass ran, when the turn qualified otherwise

    def meta(self) -> dict[str, object] | None:
        """What the companion turn records of the pass (no text of the person's)."""
        if self.extracted is None and self.skipped is None:
            return None
        if self.extracted is None:
            return {"skipped": self.skipped}
        found = self.extracted
        record = found.record
        return {
            "method": found.method,
            "candidates": len(found.facts),
            "checked": len(found.checked),
            "first_pass_failures": found.first_pass_failures,
            "rejected": found.rejected,
            "attempts": record.attempts if record else 0,
            "error": record.error if record else None,
        }


def held_by_extraction(store: Store, person_id: int, now: datetime) -> int:
    """Facts multi-fact extraction held for the person in the 24 hours before `now`."""
    with store.read() as session:
        counts = event_counts(session, person_id=person_id, since=now - DAY, by="day")
    return sum(
        c.count
        for c in counts
        if c.node == Node.HOTPATH and c.op == "create" and c.status == EXTRACTED
    )


def turn_extraction(
    store: Store,
    *,
    person_id: int,
    operator_name: str,
    classified: ClassifiedIntent,
    message: str,
    settings: Settings,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    lexicon: Lexicon,
    now: datetime,
) -> TurnExtraction:
    """Run the pass when the turn qualifies (its candidates checked with the bundle's
    `lexicon`); an empty result otherwise."""
    if not settings.multi_fact_extraction or classified.intent != INTENT:
        return TurnExtraction()
    if len(message) <= settings.multi_fact_min_chars:
        return TurnExtraction()
    room = min(
        MAX_WRITES_PER_TURN,
        settings.multi_fact_daily_cap - held_by_extraction(store, person_id, now),
    )
    if room < 2:
        return TurnExtraction(skipped="daily cap reached")
    found = extract_facts(
        message,
        operator_name=operator_name,
        library=library,
        generator=generator,
        lexicon=lexicon,
    )
    return TurnExtraction(found.facts, room, found)
