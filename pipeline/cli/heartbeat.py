"""`converse heartbeat run-once`: the companion reaches out where its rules allow."""

from __future__ import annotations

from pathlib import Path

import typer

from pipeline.cli.common import (
    DbOption,
    console,
    handles_errors,
    providers_for,
    shown,
    store_for,
)
from pipeline.providers.command_options import PROVIDER_NAMES

heartbeat_app = typer.Typer(
    help="Let the companion reach out, within its rules.", no_args_is_help=True
)


@heartbeat_app.command("run-once")
@handles_errors
def heartbeat_run_once(
    person: str | None = typer.Option(None, "--person", "-p", help="Only this person."),
    provider: str | None = typer.Option(
        None, "--provider", help=f"One of {', '.join(PROVIDER_NAMES)}.", envvar="CONVERSE_PROVIDER"
    ),
    script: Path | None = typer.Option(None, "--script", help="Fixture for --provider scripted."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Decide and say why; send nothing."),
    db_url: str | None = DbOption,
) -> None:
    """Decide for each person (or one) whether to reach out now, and do (safe from cron)."""
    from pipeline.clock import utcnow
    from pipeline.heartbeat import heartbeat
    from pipeline.store.people import get_person, list_persons

    store = store_for(db_url)
    with store.read() as session:
        people = [get_person(session, person)] if person else list_persons(session)
    # A dry run decides without a model; otherwise the provider loads once, when needed.
    responder = None if dry_run or not people else providers_for(provider, script).responder
    for found in people:
        decision, turn = heartbeat(store, found, responder, utcnow())
        name = shown(found.name)
        if turn is not None:
            console.print(f"{name}: reached out — {shown(turn.content)}", highlight=False)
        elif decision.reach_out:
            console.print(f"{name}: would reach out (dry run)", highlight=False)
        else:
            console.print(f"{name}: quiet — {shown(decision.reason)}", highlight=False)
