"""`converse worker ...`: background jobs, run by hand or from cron."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pipeline.cli.common import DbOption, console, handles_errors, providers_for, store_for

if TYPE_CHECKING:
    from pipeline.memory.embeddings import Embedder
    from pipeline.store import Store

worker_app = typer.Typer(
    help="Run background jobs (lifecycle sweep, consent expiry, consolidation, insights)."
)


@worker_app.command("run-once")
@handles_errors
def run_once(
    person: str | None = typer.Option(
        None, "--person", "-p", help="Only this person's consolidation and insights."
    ),
    provider: str | None = typer.Option(
        None,
        "--provider",
        help="Whose model compares pairs and writes insights (default as for chat).",
        envvar="CONVERSE_PROVIDER",
    ),
    script: Path | None = typer.Option(None, "--script", help="Fixture for --provider scripted."),
    db_url: str | None = DbOption,
) -> None:
    """Run every background job once: set aside unused memories, purge old set-aside ones,
    expire sensitive proposals nobody decided on, merge duplicate memories (daily) and draw
    insights (at most once in 24 h per person)."""
    from pipeline.clock import utcnow
    from pipeline.memory.consent import PROPOSAL_DAYS, expire
    from pipeline.settings import settings
    from pipeline.store.lifecycle import policy_from_env, sweep

    policy = policy_from_env()
    pairs_per_day = settings().consolidation_pairs_per_day  # a bad value: refused before any job
    store = store_for(db_url)
    with store.write() as session:
        now = utcnow()
        done = sweep(session, now, policy)
        expired = expire(session, now)
    # A purge erases: copy the WAL into the file so no page of the purged text stays there.
    checkpointed = store.checkpoint() if done.purged else True
    console.print(
        f"Lifecycle sweep: {len(done.soft_deleted)} set aside, {len(done.purged)} purged "
        f"(unused {policy.unused.days} days and importance below {policy.importance_below}, "
        f"not pinned; purged {policy.purge_after.days} days after).",
        highlight=False,
    )
    console.print(
        f"Consent: {len(expired)} sensitive proposal(s) expired (undecided after "
        f"{PROPOSAL_DAYS} days).",
        highlight=False,
    )
    if not checkpointed:
        console.print(
            "Another connection was reading, so old copies may stay in the -wal file until "
            "the next checkpoint; run the worker again when it is idle."
        )
    _memory_jobs(store, person, provider, script, pairs_per_day)


def _memory_jobs(
    store: Store,
    person: str | None,
    provider: str | None,
    script: Path | None,
    pairs_per_day: int,
) -> None:
    from pipeline.cli.worker_report import print_jobs
    from pipeline.clock import utcnow
    from pipeline.jobs import run_jobs
    from pipeline.prompting import default_library

    providers = providers_for(provider, script)

    def embedder() -> Embedder:  # the model loads only when some person has pairs to compare
        if providers.embedder is not None:
            return providers.embedder
        from pipeline.providers.local import MiniLMEmbedder

        return MiniLMEmbedder()

    done = run_jobs(
        store,
        now=utcnow(),
        library=default_library(),
        generator=providers.structured,
        embedder=embedder,
        pairs_per_day=pairs_per_day,
        lexicon=providers.lexicon,
        person=person,
    )
    print_jobs(console, done, providers.label)
