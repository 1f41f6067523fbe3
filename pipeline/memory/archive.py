"""Deep recall: past turns and stored facts that answer a query, within a token budget.

The responder reaches for this (the `search_memory` tool) when its context lacks something,
instead of the pipeline searching on every turn. Facts are found by pipeline/memory/search.py
when an embedder is lent (meaning, keywords and recency), else by shared keywords; past turns
by shared keywords (the forget rule: equal words, or long words with the same first letters),
newest first among equals. The answer is cut to `budget_tokens` at 4 characters a token, whole
lines only.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipeline.clock import as_utc
from pipeline.domain import NormativeForce
from pipeline.memory.embeddings import Embedder
from pipeline.memory.matching import content_words, word_form
from pipeline.memory.relative_time import relative_time
from pipeline.memory.search import search_memory
from pipeline.memory.working import CHARS_PER_TOKEN
from pipeline.store.assertions import list_assertions
from pipeline.store.erasure import ERASED_MARKER
from pipeline.store.tables import TurnRow

SearchType = Literal["conversations", "facts", "both"]
DEFAULT_BUDGET_TOKENS = 400
MAX_TURNS_SCANNED = 2000  # the newest; older turns live on in compaction summaries
MAX_LINE_CHARS = 300
_LIVE = (NormativeForce.HELD, NormativeForce.COMMITTED)


@dataclass(frozen=True)
class Recalled:
    """What a search found, as lines, and how many of each kind made it into the budget."""

    lines: tuple[str, ...]
    facts: int
    turns: int

    @property
    def text(self) -> str:
        """The lines, one a line."""
        return "\n".join(self.lines)


def _forms(text: str, stop_words: Collection[str] = ()) -> set[str]:
    # A query's words skip the stop words its caller lends (none: every word counts).
    return {word_form(w) for w in content_words(text, stop_words)}


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_LINE_CHARS else flat[: MAX_LINE_CHARS - 1].rstrip() + "…"


def _fact_lines(
    session: Session,
    engagement_ids: Sequence[int],
    query: str,
    embedder: Embedder | None,
    now: datetime,
    stop_words: Collection[str],
) -> list[str]:
    if embedder is not None:
        hits = search_memory(
            session, engagement_ids, query, embedder, now=now, stop_words=stop_words
        )
        return [
            f"- fact, noted {relative_time(h.created_at, now)}: {_clip(h.content)}" for h in hits
        ]
    wanted = _forms(query, stop_words)
    scored = []
    for engagement_id in engagement_ids:
        for a in list_assertions(session, engagement_id, list(_LIVE)):
            shared = len(wanted & _forms(a.content))
            if shared:
                scored.append((shared, a.created_at, a.content))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    return [f"- fact, noted {relative_time(as_utc(t), now)}: {_clip(c)}" for _, t, c in scored[:5]]


def _turn_lines(
    session: Session,
    person_id: int,
    engagement_id: int | None,
    query: str,
    now: datetime,
    before_turn_id: int | None,
    operator_name: str,
    stop_words: Collection[str],
) -> list[str]:
    wanted = _forms(query, stop_words)
    if not wanted:
        return []
    scope = (
        TurnRow.engagement_id.is_(None)
        if engagement_id is None
        else TurnRow.engagement_id == engagement_id
    )
    query_rows = select(TurnRow.role, TurnRow.content, TurnRow.created_at).where(
        TurnRow.person_id == person_id, scope, TurnRow.content != ERASED_MARKER
    )
    if before_turn_id is not None:
        query_rows = query_rows.where(TurnRow.id < before_turn_id)
    rows = session.execute(query_rows.order_by(TurnRow.id.desc()).limit(MAX_TURNS_SCANNED)).all()
    scored = []
    for order, (role, content, created) in enumerate(rows):
        shared = len(wanted & _forms(content))
        if shared:
            scored.append((shared, -order, role, content, created))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    lines = []
    for _, _, role, content, created in scored[:8]:
        who = operator_name if role == "operator" else "you"
        when = relative_time(as_utc(created), now)
        lines.append(f"- {who} said, {when}: {_clip(content)}")
    return lines


def within_budget(lines: Sequence[str], budget_tokens: int) -> list[str]:
    """The leading lines whose total length (newlines counted) fits the budget."""
    limit = budget_tokens * CHARS_PER_TOKEN
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = len(line) + (1 if kept else 0)
        if used + cost > limit:
            break
        kept.append(line)
        used += cost
    return kept


def recall(
    session: Session,
    *,
    person_id: int,
    operator_name: str,
    fact_engagement_ids: Sequence[int],
    turn_engagement_id: int | None,
    query: str,
    now: datetime,
    embedder: Embedder | None = None,
    search_type: SearchType = "both",
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    before_turn_id: int | None = None,
    stop_words: Collection[str] = (),
) -> Recalled:
    """Facts first, then past turns, as many whole lines as the budget holds; the query's
    `stop_words` (a lent lexicon's) name nothing, and with none every word counts.

    Turns are searched in one scope (a project's, or outside any), so a project's conversation
    never surfaces in another's; `before_turn_id` leaves out the turns already in the context."""
    facts = (
        _fact_lines(session, fact_engagement_ids, query, embedder, now, stop_words)
        if search_type in ("facts", "both")
        else []
    )
    turns = (
        _turn_lines(
            session,
            person_id,
            turn_engagement_id,
            query,
            now,
            before_turn_id,
            operator_name,
            stop_words,
        )
        if search_type in ("conversations", "both")
        else []
    )
    kept = within_budget(facts + turns, budget_tokens)
    n_facts = min(len(facts), len(kept))
    return Recalled(tuple(kept), n_facts, len(kept) - n_facts)
