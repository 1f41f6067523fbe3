"""What a handler is given."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from pipeline.domain import ClassifiedIntent, Engagement, HistoryTurn, Person


@dataclass(frozen=True)
class HandlerContext:
    """One turn's inputs to its handler; the session is inside the turn's write transaction."""

    session: Session
    person: Person
    project: Engagement | None
    classified: ClassifiedIntent
    prior_companion: HistoryTurn | None
    now: datetime

    def param(self, name: str) -> str:
        """A classified parameter, stripped; "" when absent."""
        return (self.classified.params.get(name) or "").strip()
