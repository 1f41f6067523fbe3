"""What a handler is given."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from pipeline.domain import Engagement, HistoryTurn, Person
from pipeline.intents.writes import Writes
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.memory.embeddings import Embedder
from pipeline.memory.matching import content_words
from pipeline.reading import ClassifiedIntent


@dataclass(frozen=True)
class HandlerContext:
    """One turn's inputs to its handler: a session to read through, and the writes it decides."""

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
    # What the handler's reads found that the turn's events record (a recall's best score).
    reads: dict[Any, Any] = field(default_factory=dict)
    # Multi-fact extraction (pipeline/extraction/): the message's candidate facts, best first,
    # and how many new facts this turn may still hold (the per-turn and daily caps).
    candidates: tuple[str, ...] = ()
    max_new_facts: int = 0
    # What the handler decides to write (pipeline/intents/writes.py): it writes through this
    # and never through the session, so deciding stores nothing.
    writes: Writes | None = None
    # The conversation's words that name nothing (pipeline/lexicon.py), lent by the provider
    # bundle; none lent, every word counts.
    lexicon: Lexicon = NO_LEXICON
    # The turns before this one, oldest first: pending items of earlier turns stay answerable
    # (pipeline/intents/acts.py).
    history: tuple[HistoryTurn, ...] = ()

    def __post_init__(self) -> None:
        if self.writes is None:
            object.__setattr__(self, "writes", Writes(self.session))

    @property
    def decided(self) -> Writes:
        """The decision's writes (made with the context when none was given)."""
        assert self.writes is not None
        return self.writes

    def keywords(self, text: str) -> set[str]:
        """The words of `text` that carry meaning in the lent lexicon."""
        return content_words(text, self.lexicon.stop_words)

    @property
    def stop_words(self) -> frozenset[str]:
        """The lent lexicon's stop words, for the keyword matchers."""
        return self.lexicon.stop_words

    def param(self, name: str) -> str:
        """A classified parameter, stripped; "" when absent."""
        return (self.classified.params.get(name) or "").strip()
