"""Every person's background jobs, once: what `converse worker run-once` runs after the
lifecycle sweep. Safe from cron and from several processes at once (each job's pass for a
person and day is claimed once, pipeline/store/job_runs.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from pipeline.jobs.consolidation import Consolidated, consolidate
from pipeline.jobs.theory_of_mind import Reflected, reflect
from pipeline.lexicon import Lexicon
from pipeline.memory.embeddings import Embedder
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store.people import get_person, list_persons


@dataclass
class JobsDone:
    """What each person's jobs did."""

    consolidated: list[Consolidated] = field(default_factory=list)
    reflected: list[Reflected] = field(default_factory=list)


def run_jobs(
    store: Store,
    *,
    now: datetime,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    embedder: Callable[[], Embedder],
    pairs_per_day: int,
    lexicon: Lexicon,
    person: str | None = None,
) -> JobsDone:
    """Consolidation, then theory of mind, for every person (or the one named); `lexicon` is
    the provider bundle's, which the insights' writing check reads."""
    with store.read() as session:
        people = [get_person(session, person)] if person else list_persons(session)
    done = JobsDone()
    for someone in people:
        done.consolidated.append(
            consolidate(
                store,
                someone,
                now=now,
                library=library,
                generator=generator,
                embedder=embedder,
                pairs_per_day=pairs_per_day,
            )
        )
        done.reflected.append(
            reflect(store, someone, now=now, library=library, generator=generator, lexicon=lexicon)
        )
    return done
