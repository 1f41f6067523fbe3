"""Permanent erasure: an assertion, its embeddings, and the text of every turn that carried it.

Which turns carried an assertion is recorded when the turn is stored (`link_turns`), never
guessed later from the text. An erased turn keeps its place, role and intent so the transcript
stays coherent; its content becomes ERASED_MARKER, every free-text value of its operation
data and metadata is replaced too, and its operation's action becomes ERASED_ACTION.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.actions import Action
from pipeline.clock import utcnow
from pipeline.domain import HistoryActor, HistoryOp
from pipeline.store.history import blank_text, record
from pipeline.store.memories import erase_from_memories
from pipeline.store.relations import unlink
from pipeline.store.status import erase_carrying
from pipeline.store.tables import (
    AssertionEmbeddingRow,
    AssertionRow,
    CompactionRow,
    EngagementRow,
    SessionRow,
    TurnAssertionRow,
    TurnRow,
    WorkingMemoryRow,
)

ERASED_MARKER = "[erased at the person's request]"
ERASED_ACTION = Action.ERASED

# Operation-data keys whose string values are fixed vocabulary, never a person's words.
_VOCABULARY = frozenset({"action", "error", "scope", "force"})


@dataclass(frozen=True)
class Erased:
    """What one erasure removed."""

    assertions: int
    turns: int


def link_turns(
    session: Session | Connection, turn_ids: Iterable[int], assertion_ids: Collection[int]
) -> None:
    """Record that these turns carried these assertions' text."""
    rows = [{"turn_id": t, "assertion_id": a} for t in turn_ids for a in sorted(assertion_ids)]
    if rows:
        session.execute(insert(TurnAssertionRow), rows)


def linked_turns(session: Session | Connection, assertion_ids: Collection[int]) -> list[int]:
    """Ids of the turns that carried any of these assertions, oldest first."""
    if not assertion_ids:
        return []
    found = session.scalars(
        select(TurnAssertionRow.turn_id)
        .where(TurnAssertionRow.assertion_id.in_(list(assertion_ids)))
        .distinct()
    )
    return sorted(found)


def _scrub(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, key) for v in value]
    if isinstance(value, str) and key not in _VOCABULARY:
        return ERASED_MARKER
    return value


def _scrub_meta(value: Any, key: str | None = None) -> Any:
    # Metadata is provider, model and usage, except error messages, which may quote the message.
    if isinstance(value, dict):
        return {k: _scrub_meta(v, k) for k, v in value.items()}
    if key == "error" and isinstance(value, str):
        return ERASED_MARKER
    return value


def erase_assertions(
    session: Session,
    assertion_ids: Iterable[int],
    *,
    actor: HistoryActor,
    reason: str = "erased",
) -> Erased:
    """Delete assertions, their embeddings and relations, blank every turn that carried them and the
    text of their history, and record a DELETE (with no text) in that history.

    `reason` is `erased` (someone asked) or `purged` (the lifecycle sweep)."""
    ids = sorted(set(assertion_ids))
    if not ids:
        return Erased(0, 0)
    moment = utcnow()
    gone = session.execute(
        select(
            AssertionRow.id,
            AssertionRow.engagement_id,
            AssertionRow.display_number,
            AssertionRow.force,
        ).where(AssertionRow.id.in_(ids))
    ).all()
    contents = list(session.scalars(select(AssertionRow.content).where(AssertionRow.id.in_(ids))))
    blank_text(session, ids)
    from pipeline.store.ann import remove_erased  # the index library loads only when erasing

    remove_erased(session, [(engagement_id, aid) for aid, engagement_id, _, _ in gone])
    for aid, engagement_id, number, force in gone:
        record(
            session,
            assertion_id=aid,
            engagement_id=engagement_id,
            display_number=number,
            op=HistoryOp.DELETE,
            actor=actor,
            old_force=force,
            detail={"reason": reason},
            at=moment,
        )
    turn_ids = linked_turns(session, ids)
    _erase_turns(session, turn_ids, moment)
    session.execute(delete(TurnAssertionRow).where(TurnAssertionRow.assertion_id.in_(ids)))
    session.execute(
        delete(AssertionEmbeddingRow).where(AssertionEmbeddingRow.assertion_id.in_(ids))
    )
    unlink(session, ids)  # explicit: SQLite cascades only with foreign keys on
    owners = _owners(session, {engagement_id for _, engagement_id, _, _ in gone})
    _forget_summaries(session, owners, moment)
    erase_carrying(session, owners, turn_ids, contents)  # status notes that repeat the text
    result = session.execute(delete(AssertionRow).where(AssertionRow.id.in_(ids)))
    return Erased(int(getattr(result, "rowcount", 0) or 0), len(turn_ids))


def _owners(session: Session, engagement_ids: set[int]) -> list[int]:
    owners = session.scalars(
        select(EngagementRow.owner_person_id).where(EngagementRow.id.in_(engagement_ids))
    ).all()
    return sorted({p for p in owners if p is not None})


def _forget_summaries(session: Session, people: list[int], moment: datetime) -> None:
    """Drop what a model may have written the erased text into: the owners' compaction
    summaries and working memory, and the working memory their open sessions keep. Which of
    them restate the fact cannot be told (a summary paraphrases), so all of them go; the turns
    they stood for stay, blanked where they carried the fact, and the next compaction starts
    afresh."""
    if not people:
        return
    session.execute(delete(CompactionRow).where(CompactionRow.person_id.in_(people)))
    session.execute(delete(WorkingMemoryRow).where(WorkingMemoryRow.person_id.in_(people)))
    session.execute(  # every snapshot blanked; an open session ends here
        update(SessionRow)
        .where(SessionRow.person_id.in_(people))
        .values(context="{}", reset_at=func.coalesce(SessionRow.reset_at, moment))
    )


def _erase_turns(session: Session, turn_ids: list[int], moment: datetime) -> None:
    """Replace the text of these turns (content, operation data, metadata) with the marker,
    and of the conversation memories extracted from them."""
    erased_at = moment.isoformat()
    for turn_id, data, meta in session.execute(
        select(TurnRow.id, TurnRow.operation_data, TurnRow.meta).where(TurnRow.id.in_(turn_ids))
    ).all():
        scrubbed = _scrub(data or {})
        if "action" in scrubbed:  # an erased offer or match can no longer be confirmed
            scrubbed["action"] = ERASED_ACTION
        session.execute(
            update(TurnRow)
            .where(TurnRow.id == turn_id)
            .values(
                content=ERASED_MARKER,
                operation_data=scrubbed,
                meta={**_scrub_meta(meta or {}), "erased_at": erased_at},
            )
        )
    # Memories extracted from conversations holding those turns (docs/conversations.md).
    erase_from_memories(session, turn_ids, ERASED_MARKER)


def mentioning(session: Session, person_id: int, texts: Iterable[str]) -> list[int]:
    """The person's turns (both roles) whose text contains any of `texts`, case ignored;
    already erased turns left out."""
    wanted = [t.casefold() for t in texts if t.strip()]
    if not wanted:
        return []
    rows = session.execute(
        select(TurnRow.id, TurnRow.content)
        .where(TurnRow.person_id == person_id, TurnRow.content != ERASED_MARKER)
        .order_by(TurnRow.id)
    ).all()
    return [turn_id for turn_id, content in rows if any(w in content.casefold() for w in wanted)]


def erase_mentions(session: Session, person_id: int, texts: Iterable[str]) -> int:
    """Erase every turn of the person that mentions any of `texts` (`mentioning`), as a
    turn that stated an erased fact is erased; how many. For words a person repeated in
    plain chat, which no fact links to (docs/memory.md, "Erase")."""
    wanted = [t for t in texts if t.strip()]
    turn_ids = mentioning(session, person_id, wanted)
    if turn_ids:
        moment = utcnow()
        _erase_turns(session, turn_ids, moment)
        # summaries and status notes written from those turns may repeat the words
        _forget_summaries(session, [person_id], moment)
        erase_carrying(session, [person_id], turn_ids, wanted)
    return len(turn_ids)


# A word of an erased fact shorter than this is too common to say a turn is about the fact.
_MIN_WORD = 4


def left_mentions(
    session: Session, person_id: int, contents: Iterable[str], stop_words: Collection[str]
) -> list[tuple[str, list[int]]]:
    """What an erasure left: each word of the erased facts' text (stop words and words under
    four letters aside) that turns of the person still hold, with those turns' ids, so the
    command can say exactly what remains and how to erase it (`erase_mentions`)."""
    words = dict.fromkeys(
        w
        for text in contents
        for w in re.findall(r"\w+", text.casefold())
        if len(w) >= _MIN_WORD and w not in stop_words
    )
    if not words:
        return []
    rows = session.execute(  # one read of the person's turns for every word
        select(TurnRow.id, TurnRow.content)
        .where(TurnRow.person_id == person_id, TurnRow.content != ERASED_MARKER)
        .order_by(TurnRow.id)
    ).all()
    texts = [(turn_id, content.casefold()) for turn_id, content in rows]
    left = [(w, [turn_id for turn_id, text in texts if w in text]) for w in words]
    return [(w, ids) for w, ids in left if ids]
