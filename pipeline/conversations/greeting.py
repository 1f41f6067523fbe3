"""What the companion can open with when no conversation is open: the person's open
questions and waiting-ons, the decisions of the last days, and tasks gone stale."""

from __future__ import annotations

from datetime import datetime, timedelta

from pipeline.conversation_models import Conversation, EntityStatus, MemoryEntity
from pipeline.domain import Frozen
from pipeline.store import Store
from pipeline.store import conversations as conv_repo
from pipeline.store import memories as repo

DECISION_DAYS = 7
STALE_AFTER = timedelta(days=14)


class Greeting(Frozen):
    """The startup greeting's data; `open_conversation` set means: resume that instead."""

    open_conversation: Conversation | None
    open_questions: tuple[MemoryEntity, ...]
    waiting_on: tuple[MemoryEntity, ...]
    recent_decisions: tuple[MemoryEntity, ...]
    stale_tasks: tuple[MemoryEntity, ...]


def startup_greeting(
    store: Store,
    person_id: int,
    now: datetime,
    *,
    decision_days: int = DECISION_DAYS,
    stale_after: timedelta = STALE_AFTER,
) -> Greeting:
    """From the person's confirmed memories only (drafts are not known yet)."""
    kinds = ("questions_opened", "waiting_on", "decisions", "tasks")
    with store.read() as session:
        current = conv_repo.open_conversation(session, person_id)
        found = repo.confirmed_entities(session, person_id, kinds)

    def active(kind: str) -> list[MemoryEntity]:
        return [e for e in found if e.kind == kind and e.status is EntityStatus.ACTIVE]

    since = now - timedelta(days=decision_days)
    return Greeting(
        open_conversation=current,
        open_questions=tuple(active("questions_opened")),
        waiting_on=tuple(active("waiting_on")),
        recent_decisions=tuple(e for e in found if e.kind == "decisions" and e.created_at >= since),
        stale_tasks=tuple(
            e
            for e in active("tasks")
            if e.data.get("status") != "done" and e.created_at < now - stale_after
        ),
    )
