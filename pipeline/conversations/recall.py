"""Memory-aware classification (specification 003, "Memory-aware classification"): before a
message is classified, the person's most relevant confirmed memories (hybrid search) and the
open threads it touches are put before the classifier; which ones, with their scores and
reasons, are kept with the turn, so `converse explain TURN` can show what influenced it.

Only template-reading classifiers (Claude, local-llm, openai-compatible) read them
(pipeline/providers/classifier_system.py); the local nearest-examples classifier is given
them and does not use them, and `explain` says so through the provider it names.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy.orm import Session

from pipeline.conversations.memory_search import rank, snapshot, touched_threads
from pipeline.domain import Frozen, MemoryNote, Turn
from pipeline.errors import NotFound
from pipeline.memory.embeddings import Embedder
from pipeline.store import Store
from pipeline.store.classification_refs import add_references, references
from pipeline.store.memories import memory, memory_row
from pipeline.store.turns import get_turn

MAX_MEMORIES = 3
MAX_THREADS = 3


def classification_notes(
    store: Store,
    person_id: int,
    message: str,
    embedder: Embedder | None,
    stop_words: Collection[str] = (),
) -> tuple[MemoryNote, ...]:
    """The memories and open threads to put before the classifier for this message;
    `stop_words` (the bundle's lexicon's) are the message's words that touch no thread."""
    if embedder is None:
        return ()
    indexed = snapshot(store, person_id, embedder, stop_words)  # one fingerprint query for both
    ranked = rank(store, person_id, message, embedder, limit=MAX_MEMORIES, indexed=indexed)
    notes = [
        MemoryNote(
            memory_id=r.memory_id, kind="memory", text=r.narrative, score=r.score, reason=r.reason
        )
        for r in ranked
    ]
    for t in touched_threads(indexed, message, MAX_THREADS):
        notes.append(
            MemoryNote(
                memory_id=t.memory_id,
                kind=t.kind,
                text=t.text,
                score=t.keyword,
                # The reference keeps the memory holding the thread: the reason names the thread.
                reason=f"open {t.kind.replace('_', ' ')} {t.text!r} in it: {t.keyword:.0%} "
                "of the message's keywords",
            )
        )
    return tuple(notes)


def record_references(
    session: Session, turn_id: int, notes: tuple[MemoryNote, ...], now: datetime
) -> None:
    """Keep what the turn's classifier was shown, in the turn's transaction."""
    add_references(session, turn_id, [(n.memory_id, n.score, n.reason) for n in notes], now)


class Influence(Frozen):
    """One memory a classification was shown."""

    memory_id: int
    narrative: str
    destination: str
    score: float
    reason: str


class Explanation(Frozen):
    """Why a message was classified as it was: the decision and the memories before it."""

    turn_id: int
    message: str
    intent: str | None
    confidence: float | None
    provider: str
    influences: tuple[Influence, ...]


def explain_classification(store: Store, person_id: int, turn_id: int) -> Explanation:
    """The classification of one of the person's messages and the memories it was shown."""
    with store.read() as session:
        turn = get_turn(session, person_id, turn_id)
        if turn is None or turn.role.value != "operator":
            raise NotFound(
                f"no message {turn_id} from this person",
                "a turn id is printed by `converse conversation show --person NAME`",
            )
        influences = []
        for memory_id, score, reason in references(session, turn_id):
            found = memory(session, memory_row(session, person_id, memory_id))
            influences.append(
                Influence(
                    memory_id=memory_id,
                    narrative=found.narrative,
                    destination=found.destination.name,
                    score=score,
                    reason=reason,
                )
            )
    return _explained(turn, tuple(influences))


def _explained(turn: Turn, influences: tuple[Influence, ...]) -> Explanation:
    meta = turn.meta or {}
    confidence = meta.get("confidence")
    return Explanation(
        turn_id=turn.id,
        message=turn.content,
        intent=turn.intent,
        confidence=float(confidence) if isinstance(confidence, int | float) else None,
        provider=str(meta.get("provider", "")),
        influences=influences,
    )
