"""What a handler is given."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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
    # Semantic matching for forget_about_me (tie-breaker and fallback); None = keywords only.
    embedder: Embedder | None = None

    def param(self, name: str) -> str:
        """A classified parameter, stripped; "" when absent."""
        return (self.classified.params.get(name) or "").strip()
