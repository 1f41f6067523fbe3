"""`converse consent ...`: sensitive profile changes waiting for the person's decision."""

from __future__ import annotations

import typer

from pipeline.cli.common import DbOption, PersonOption, console, handles_errors, shown, store_for
from pipeline.cli.params import id_argument

consent_app = typer.Typer(
    help="Sensitive profile changes (name, pronouns, city, language) waiting for consent.",
    no_args_is_help=True,
)

ProposalArgument = id_argument(
    "#",
    "see the proposals with `converse consent list --person NAME`",
    "The proposal's number, from `consent list`.",
)


@consent_app.command("list")
@handles_errors
def consent_list(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Held facts that change a sensitive field, and when each proposal expires."""
    from pipeline.memory.consent import pending
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        proposals = pending(session, get_person(session, person))
    if not proposals:
        console.print("No sensitive change is waiting for consent.", highlight=False)
        return
    for p in proposals:
        console.print(
            f"#{p.assertion.display_number} ({p.field.label}) {shown(p.assertion.content)} — "
            f"expires {p.expires_at:%Y-%m-%d %H:%M} UTC unless accepted",
            highlight=False,
        )


def _decide(person: str, number: int, accept: bool, db_url: str | None) -> None:
    from pipeline.domain import HistoryActor
    from pipeline.memory.consent import decide
    from pipeline.store.people import get_person

    with store_for(db_url).write() as session:
        done = decide(session, get_person(session, person), number, accept, HistoryActor.CLI)
    word = "Accepted (committed)" if accept else "Refused (retracted)"
    console.print(f"{word} #{done.display_number}: {shown(done.content)}", highlight=False)


@consent_app.command("accept")
@handles_errors
def consent_accept(
    number: int = ProposalArgument,
    person: str = PersonOption,
    db_url: str | None = DbOption,
) -> None:
    """Apply a sensitive change: the fact is committed and reaches prompts."""
    _decide(person, number, True, db_url)


@consent_app.command("reject")
@handles_errors
def consent_reject(
    number: int = ProposalArgument,
    person: str = PersonOption,
    db_url: str | None = DbOption,
) -> None:
    """Refuse a sensitive change: the fact is retracted (restorable, like any retraction)."""
    _decide(person, number, False, db_url)
