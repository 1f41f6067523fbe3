"""Compaction: when a conversation's turns since the last summary pass a token threshold,
fold all but the newest few into one summary, so the history a turn carries stays bounded
however long the conversation runs.

The summary (which also folds the previous one) becomes the conversation's newest compaction,
the person's working memory, and the durable facts found in it become held personal
assertions for the person to confirm. It runs after a turn is stored, in its own transactions:
a crash during it loses nothing, and the next turn tries again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from pipeline.domain import ActorKind, HistoryTurn, NormativeForce, Person, PromptRef, Usage
from pipeline.errors import ProviderError
from pipeline.lexicon import Lexicon
from pipeline.memory.session import write_working_memory
from pipeline.memory.working import CHARS_PER_TOKEN, truncated
from pipeline.memory.writing import Admitted, admit
from pipeline.prompting import PromptLibrary
from pipeline.providers.summarize import Summarizer, SummarizeRequest, TokenCounter
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.compactions import add_compaction, latest_compaction
from pipeline.store.people import get_person_by_id
from pipeline.store.turns import turns_between

MAX_FACTS = 3
log = logging.getLogger(__name__)
# A model whose count failed is named once per process, not at every turn.
_warned: set[str] = set()
_warned_lock = threading.Lock()


@dataclass(frozen=True)
class Compacted:
    """What one compaction did."""

    folded_turns: int
    upto_turn_id: int
    summary: str
    held_facts: tuple[str, ...]
    method: str
    usage: Usage = field(default_factory=Usage)
    prompt_ref: PromptRef | None = None
    measured_by: str = "estimate"  # "estimate" (4 characters a token) or "count_tokens"
    # the writing check of each durable fact as the summarizer wrote it
    checked: tuple[Admitted, ...] = ()

    @property
    def first_pass_failures(self) -> int:
        """Durable facts that broke a writing rule as written (trimmed or not stored)."""
        return sum(not a.first_pass for a in self.checked)


def admit_facts(facts: Sequence[str], lexicon: Lexicon) -> tuple[Admitted, ...]:
    """The summarizer's durable facts (at most MAX_FACTS) through the writing constraints,
    read with the conversation's `lexicon`: personal facts are stored in the second person, as
    the memory block shows them."""
    return tuple(admit(fact, "second", lexicon=lexicon) for fact in facts[:MAX_FACTS])


def measure(turns: Sequence[HistoryTurn], summarizer: Summarizer) -> tuple[float, str]:
    """The turns' size in tokens and how it was had: counted by the summarizer's model when it
    can count (Claude's count_tokens), else estimated at 4 characters a token. A failed count
    falls back to the estimate, logged once per summarizer."""
    estimate = sum(len(t.content) for t in turns) / CHARS_PER_TOKEN
    if not isinstance(summarizer, TokenCounter):
        return estimate, "estimate"
    try:
        return float(summarizer.count_tokens(turns)), "count_tokens"
    except ProviderError as exc:
        with _warned_lock:
            first = summarizer.name not in _warned
            _warned.add(summarizer.name)
        if first:
            log.warning(
                "compaction: %s could not count tokens (%s); using the 4-characters-a-token "
                "estimate",
                summarizer.name,
                exc.one_line(),
            )
        return estimate, "estimate"


def _hold_facts(
    session: Session, person: Person, checked: Sequence[Admitted], now: datetime
) -> list[str]:
    """Hold the durable facts the summary found that personal memory lacks; a fact no trim
    could save is not stored (docs/memory.md)."""
    held: list[str] = []
    for each in checked:
        fact = each.text
        if person.personal_engagement_id is None or fact is None:
            continue
        if repo.find_live(session, person.personal_engagement_id, fact) is None:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                fact,
                ActorKind.COMPANION,
                NormativeForce.HELD,
                created_at=now,
            )
            held.append(fact)
    return held


def compact_if_due(
    store: Store,
    *,
    person_id: int,
    engagement_id: int | None,
    last_turn_id: int,
    summarizer: Summarizer,
    library: PromptLibrary,
    settings: Settings,
    now: datetime,
    lexicon: Lexicon,
) -> Compacted | None:
    """Compact the conversation if its turns since the last summary pass the threshold; the
    durable facts are checked with the `lexicon` the provider bundle lends."""
    with store.read() as session:
        latest = latest_compaction(session, person_id, engagement_id)
        after = latest.upto_turn_id if latest else 0
        turns = turns_between(session, person_id, engagement_id, after, last_turn_id)
        person = get_person_by_id(session, person_id)
    folded = turns[: -settings.compaction_keep_turns]
    if not folded:
        return None
    history = [HistoryTurn(role=role, content=text) for _, role, text in turns]
    if sum(len(t.content) for t in history) <= settings.compaction_threshold_tokens / 2:
        # Fewer characters than half the threshold: below it by any model's count (none spends
        # two tokens a character on ordinary text), so most turns cost no count call.
        return None
    size, measured_by = measure(history, summarizer)
    if size <= settings.compaction_threshold_tokens:
        return None
    template = library.render(
        f"compaction/{settings.compaction_variant}",
        operator_name=person.name,
        budget_tokens=settings.working_memory_budget_tokens,
        custom=settings.custom_compaction_instructions(),
    )
    summary = summarizer.summarize(
        SummarizeRequest(
            turns=tuple(history[: len(folded)]),
            previous_summary=latest.summary if latest else "",
            instructions=template.text,
            budget_tokens=settings.working_memory_budget_tokens,
            operator_name=person.name,
            prompt_refs=(template.ref,),
        )
    )
    text = truncated(summary.text, settings.working_memory_budget_tokens)
    checked_facts = admit_facts(summary.facts, lexicon)
    upto = folded[-1][0]
    with store.write() as session:
        add_compaction(
            session,
            person_id=person_id,
            engagement_id=engagement_id,
            upto_turn_id=upto,
            summary=text,
            method=summary.method or summarizer.name,
            now=now,
        )
        if text:
            write_working_memory(session, person_id, text, now, settings)
        held = _hold_facts(session, person, checked_facts, now)
    return Compacted(
        len(folded),
        upto,
        text,
        tuple(held),
        summary.method or summarizer.name,
        usage=summary.usage,
        prompt_ref=template.ref,
        measured_by=measured_by,
        checked=checked_facts,
    )
