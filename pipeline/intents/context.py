"""What a handler is given."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from pipeline.domain import ClassifiedIntent, Engagement, HistoryTurn, Person
from pipeline.memory.embeddings import Embedder


@dataclass(frozen=True)
class HandlerContext:
    """One turn's inputs to its handler; the session is inside the turn's write transaction."""

    session: Session
    person: Person
    project: Engagement | None
    classified: ClassifiedIntent
    prior_companion: HistoryTurn | None
    now: datetime
    # Semantic matching for forget_about_me and recall; None = keywords only.
    embedder: Embedder | None = None
    # The operator's message as typed: data to store or search, never read for its wording
    # (whether it confirms, corrects or rejects is the classifier's typed reading).
    message: str = ""
    # Shared by the turn's rehearsal and apply (pipeline/converse.py): a read-only search
    # done in the rehearsal is reused, so the stored result is the one the reply was built on.
    reads: dict[Any, Any] = field(default_factory=dict)
    # Multi-fact extraction (pipeline/extraction/): the message's candidate facts, best first,
    # and how many new facts this turn may still hold (the per-turn and daily caps).
    candidates: tuple[str, ...] = ()
    max_new_facts: int = 0

    def param(self, name: str) -> str:
        """A classified parameter, stripped; "" when absent."""
        return (self.classified.params.get(name) or "").strip()
