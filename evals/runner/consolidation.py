"""The consolidation target: a person's facts stored in the sandbox, then the worker's
consolidation job (pipeline.jobs.consolidate) run once for them, as `converse worker run-once`
runs it, with the provider's structured generator (None on the pipeline baseline: the
deterministic rule) and the provider's embedding model (else the local one).

The outcome is what memory holds after: how many duplicates there were and remain, and every
merge that joined two different facts.
"""

from __future__ import annotations

import time
from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import select

from evals.dataset.consolidation import ConsolidationCase
from evals.runner.outcome import NOW, Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from pipeline.domain import ActorKind, HistoryOp, NormativeForce
from pipeline.jobs import consolidate
from pipeline.memory.embeddings import Embedder
from pipeline.store import AssertionRow, HistoryRow, Store, add_assertion, create_person

PAIRS_PER_DAY = 50


@cache
def _local_embedder() -> Embedder:
    from pipeline.providers.local import MiniLMEmbedder

    return MiniLMEmbedder()


def run_consolidation(case: ConsolidationCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Seed the facts (a day old, in order), run the job at NOW, read back what memory holds."""
    store = sandbox.store
    groups = case.groups()
    fact_of: dict[int, int] = {}  # display number -> index of the fact it states
    with store.write() as session:
        person = create_person(session, sandbox.unique_name(case.person))
        personal = person.personal_engagement_id
        assert personal is not None
        moment = NOW - timedelta(days=1)
        for index, group in enumerate(groups):
            for statement in group:
                moment += timedelta(minutes=1)
                made = add_assertion(
                    session,
                    personal,
                    statement,
                    ActorKind.OPERATOR,
                    NormativeForce.COMMITTED,
                    created_at=moment,
                )
                fact_of[made.display_number] = index
    embedder = bound.embedder or _local_embedder()
    started = time.perf_counter()
    done = consolidate(
        store,
        person,
        now=NOW,
        library=bound.library,
        generator=bound.structured,
        embedder=lambda: embedder,
        pairs_per_day=PAIRS_PER_DAY,
    )
    elapsed = (time.perf_counter() - started) * 1000
    got = _held(store, personal, groups, fact_of)
    got["job"] = {**done.counts(), "methods": sorted(done.methods), "errors": done.errors}
    return Outcome(got=got, latency_ms=elapsed, error=None)


def _held(
    store: Store, personal: int, groups: list[list[str]], fact_of: dict[int, int]
) -> dict[str, Any]:
    with store.read() as session:
        live = session.scalars(
            select(AssertionRow.display_number).where(
                AssertionRow.engagement_id == personal,
                AssertionRow.force == NormativeForce.COMMITTED.value,
                AssertionRow.deleted_at.is_(None),
            )
        ).all()
        merges = session.execute(
            select(HistoryRow.display_number, HistoryRow.detail).where(
                HistoryRow.engagement_id == personal, HistoryRow.op == HistoryOp.MERGE.value
            )
        ).all()
    live_per_fact = [0] * len(groups)
    for number in live:
        live_per_fact[fact_of[number]] += 1
    wrong = [
        {"merged": _text(groups, fact_of, number), "into": _text(groups, fact_of, into)}
        for number, detail in merges
        if (into := (detail or {}).get("merged_into")) is not None
        and fact_of[number] != fact_of[into]
    ]
    return {
        "duplicates_before": sum(len(g) - 1 for g in groups),
        "duplicates_after": sum(max(0, n - 1) for n in live_per_fact),
        "facts_lost": sum(1 for n in live_per_fact if n == 0),
        "wrongly_merged": wrong,
        "merged": sum(1 for _, d in merges if (d or {}).get("merged_into") is not None),
    }


def _text(groups: list[list[str]], fact_of: dict[int, int], number: int) -> str:
    index = fact_of[number]
    return groups[index][0]
