"""On-demand recall (specification 004, section 11): when the classifier is unsure of a
message, one bounded memory.query looks the message up in the person's memory, and what it
finds that the prompt does not already show is put before the responder.

"Unsure" is the threshold the local classifier already uses to fall back to
general_conversation (LOW_CONFIDENCE, pipeline/intents/taxonomy.py): below it the turn is
answered as small talk, which is exactly when a remembered fact the classifier missed helps
most. A classifier that reports no confidence (the Claude provider's forced tool call) never
triggers it. Each firing is an operational event (node hotpath, op recall) with its latency
and whether it found anything: `ok` (bullets shown), `in_context` (everything it found was
already in the prompt) or `no_match`. The lookup is also a memory.query, counted as one (node
tool). CONVERSE_ON_DEMAND_RECALL=false turns it off.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from pipeline.domain import Person
from pipeline.intents.taxonomy import LOW_CONFIDENCE
from pipeline.memory.embeddings import Embedder
from pipeline.memory.query import MemoryQuery, QueryItem, memory_query
from pipeline.reading import ClassifiedIntent
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.events import Event, Node, conversation_key, record_events

TOP_K = 3
BUDGET_TOKENS = 120  # three bullets of a typical fact (~150 characters) fit
OP = "recall"


@dataclass(frozen=True)
class Recalled:
    """What one firing found that the prompt did not show, and how it went."""

    bullets: tuple[str, ...]
    ids: tuple[int, ...]
    status: str
    latency_ms: float

    def meta(self) -> dict[str, object]:
        """As the companion turn keeps it: ids, never text (erasure need not look here)."""
        return {"status": self.status, "ids": list(self.ids), "ms": self.latency_ms}


def should_recall(classified: ClassifiedIntent, embedder: Embedder | None, on: bool) -> bool:
    """Whether this turn looks its message up: on, unsure, and able to rank by meaning."""
    confidence = classified.confidence
    return on and embedder is not None and confidence is not None and confidence < LOW_CONFIDENCE


def _new(items: Iterable[QueryItem], shown_ids: set[int], shown_text: str) -> list[QueryItem]:
    """The items the prompt does not already carry (by id, or by their words)."""
    return [i for i in items if i.id not in shown_ids and i.content.casefold() not in shown_text]


def recall_on_demand(
    store: Store,
    person: Person,
    engagement_id: int | None,
    message: str,
    classified: ClassifiedIntent,
    embedder: Embedder | None,
    turn_settings: Settings,
    *,
    shown_ids: Iterable[int],
    shown_texts: Iterable[str],
    now: datetime,
) -> Recalled | None:
    """At most one memory.query for this turn (None when it does not fire), recorded as an
    event in the lookup's own transaction."""
    if not should_recall(classified, embedder, turn_settings.on_demand_recall):
        return None
    request = MemoryQuery(
        person=person.name, query=message, top_k=TOP_K, mode="bullets", budget_tokens=BUDGET_TOKENS
    )
    shown_text = "\n".join(shown_texts).casefold()
    with store.write() as session:
        started = time.perf_counter()
        found = memory_query(session, request, embedder, now=now)
        fresh = _new(found.items, set(shown_ids), shown_text)
        latency_ms = (time.perf_counter() - started) * 1000
        status = "ok" if fresh else ("in_context" if found.items else "no_match")
        similarities = [i.similarity for i in fresh or found.items if i.similarity is not None]
        event = Event(
            Node.HOTPATH,
            OP,
            status,
            person_id=person.id,
            conversation=conversation_key(engagement_id),
            memory_id=fresh[0].id if fresh else None,
            similarity=max(similarities) if similarities else None,
            latency_ms=latency_ms,
        )
        record_events(session, [event], now)
    return Recalled(
        bullets=tuple(i.text for i in fresh),
        ids=tuple(i.id for i in fresh),
        status=status,
        latency_ms=round(latency_ms, 3),
    )
