"""`converse worker ...`: background jobs, run by hand or from cron."""

from __future__ import annotations

import typer

from pipeline.cli.common import DbOption, console, handles_errors, store_for

worker_app = typer.Typer(help="Run background jobs (the memory lifecycle sweep).")


@worker_app.command("run-once")
@handles_errors
def run_once(db_url: str | None = DbOption) -> None:
    """Run every background job once: set aside unused memories, purge old set-aside ones,
    expire sensitive proposals nobody decided on."""
    from pipeline.clock import utcnow
    from pipeline.memory.consent import PROPOSAL_DAYS, expire
    from pipeline.store.lifecycle import policy_from_env, sweep

    policy = policy_from_env()
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
