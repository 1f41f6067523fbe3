"""The daily consolidation job for one person: claim the day, find candidate pairs without a
model (pipeline/jobs/pairs.py), skip pairs compared in the last FINGERPRINT_DAYS, compare at
most `pairs_per_day` (pipeline/jobs/same_fact.py), and merge the same-fact pairs reversibly
(pipeline/store/merges.py). Pairs never cross an engagement, so never a person.

No write transaction is held while the model is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pipeline.domain import Assertion, NormativeForce, Person
from pipeline.jobs.claims import claimed
from pipeline.jobs.pairs import Pair, candidate_pairs, pool
from pipeline.jobs.same_fact import Verdict, decide
from pipeline.memory.embeddings import Embedder
from pipeline.memory.search import ensure_vectors
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store.assertions import list_assertions
from pipeline.store.events import Event, Node, record_events
from pipeline.store.job_runs import (
    DONE,
    finish,
    fresh_fingerprints,
    pair_hash,
    remember_fingerprints,
)
from pipeline.store.merges import merge_into
from pipeline.store.people import list_projects

JOB = "consolidation"
FINGERPRINT_DAYS = 14
# Insights are the theory-of-mind job's observations, not facts to merge with facts.
NOT_CONSOLIDATED = frozenset({"relationship_dynamic"})


@dataclass
class Consolidated:
    """What one person's pass did."""

    person: str
    claimed: bool = False
    candidates: int = 0
    skipped_fingerprint: int = 0
    checked: int = 0
    merged: int = 0
    methods: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """The figures kept on the job's run row."""
        return {
            "candidates": self.candidates,
            "skipped_fingerprint": self.skipped_fingerprint,
            "checked": self.checked,
            "merged": self.merged,
        }


def _memories(store: Store, person: Person) -> list[list[Assertion]]:
    with store.read() as session:
        engagements = [p.id for p in list_projects(session, person)]
        if person.personal_engagement_id is not None:
            engagements.insert(0, person.personal_engagement_id)
        return [
            [
                a
                for a in list_assertions(session, e, forces=[NormativeForce.COMMITTED])
                if a.category not in NOT_CONSOLIDATED
            ]
            for e in engagements
        ]


def _pairs(
    store: Store, groups: Sequence[list[Assertion]], embedder: Embedder, now: datetime
) -> list[Pair]:
    found: list[Pair] = []
    with store.write() as session:  # vectors missing or stale are computed and kept
        for memories in groups:
            if len(memories) < 2:
                continue
            vectors = ensure_vectors(session, [(m.id, m.content) for m in memories], embedder)
            found.extend(candidate_pairs(memories, vectors, now))
    found.sort(key=lambda p: -p.score)
    return found


def _kept_and_merged(verdict: Verdict) -> tuple[Assertion, Assertion]:
    """Keep the pinned one, else the newer; the other is merged into it."""
    a, b = verdict.pair.a, verdict.pair.b
    rank = sorted((a, b), key=lambda m: (m.pinned, m.updated_at, m.id))
    return rank[1], rank[0]


def consolidate(
    store: Store,
    person: Person,
    *,
    now: datetime,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    embedder: Callable[[], Embedder],
    pairs_per_day: int,
) -> Consolidated:
    """Run the person's pass for today, unless another worker has claimed it."""
    done = Consolidated(person=person.name)
    with claimed(store, JOB, person.id, now) as run_id:
        if run_id is not None:
            done.claimed = True
            _run(store, person, run_id, done, now, library, generator, embedder, pairs_per_day)
    return done


def _run(
    store: Store,
    person: Person,
    run_id: int,
    done: Consolidated,
    now: datetime,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    embedder: Callable[[], Embedder],
    pairs_per_day: int,
) -> None:
    groups = _memories(store, person)
    # The embedding model loads only when some engagement has a pool memory and a partner.
    due_groups = [g for g in groups if len(g) > 1 and pool(g, now)]
    pairs = _pairs(store, due_groups, embedder(), now) if due_groups else []
    done.candidates = len(pairs)
    digests = {id(p): pair_hash(p.a.id, p.b.id, p.score) for p in pairs}
    with store.read() as session:
        fresh = fresh_fingerprints(
            session, list(digests.values()), now - timedelta(days=FINGERPRINT_DAYS)
        )
    due = [p for p in pairs if digests[id(p)] not in fresh]
    done.skipped_fingerprint = len(pairs) - len(due)
    due = due[:pairs_per_day]
    verdicts, records = decide(due, library, generator, person.name)
    done.checked = len(verdicts)
    done.methods = {v.method for v in verdicts}
    done.errors = [r.error for r in records if r.error]
    with store.write() as session:
        merged_ids: set[int] = set()
        events: list[Event] = []
        for verdict in verdicts:
            kept, merged = _kept_and_merged(verdict)
            status = "distinct"
            if verdict.same and not {kept.id, merged.id} & merged_ids:
                detail = {"similarity": round(verdict.pair.score, 4), "job": JOB}
                if merge_into(session, kept.id, merged.id, detail=detail):
                    merged_ids.add(merged.id)
                    status = "merged"
            events.append(
                Event(
                    Node.WORKER,
                    "consolidate",
                    status,
                    person_id=person.id,
                    memory_id=merged.id,
                    category=merged.category,
                    similarity=verdict.pair.score,
                )
            )
        done.merged = len(merged_ids)
        remember_fingerprints(
            session,
            person.id,
            [(digests[id(v.pair)], "same" if v.same else "distinct") for v in verdicts],
            now,
        )
        record_events(session, events, now)
        finish(session, run_id, DONE, {**done.counts(), "errors": len(done.errors)}, now)
