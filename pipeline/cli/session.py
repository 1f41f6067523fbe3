"""`converse session ...`: a person's session and working memory."""

from __future__ import annotations

import sys

import typer

from pipeline.cli.common import DbOption, PersonOption, console, handles_errors, store_for

session_app = typer.Typer(
    help="Show or reset a person's session and working memory.", no_args_is_help=True
)


@session_app.command("show")
@handles_errors
def session_show(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """Print the working memory document as stored, and whether it is in use."""
    from pipeline.clock import utcnow
    from pipeline.memory.working import readable
    from pipeline.store.people import get_person
    from pipeline.store.sessions import working_document

    with store_for(db_url).read() as session:
        found = get_person(session, person)
        text = working_document(session, found.id)
    if text is None:
        console.print("No working memory yet (compaction writes it).", highlight=False)
        return
    state = "in use" if readable(text, utcnow()) else "ignored: expired or malformed"
    console.print(f"Working memory ({state}):", highlight=False)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")  # as stored, no markup
    sys.stdout.flush()


@session_app.command("reset")
@handles_errors
def session_reset(person: str = PersonOption, db_url: str | None = DbOption) -> None:
    """End the open session: the next turn starts a new one, with fresh session context."""
    from pipeline.clock import utcnow
    from pipeline.store.people import get_person
    from pipeline.store.sessions import reset_sessions

    with store_for(db_url).write() as session:
        ended = reset_sessions(session, get_person(session, person).id, utcnow())
    console.print(
        "Session reset: the next message starts a new one."
        if ended
        else "No open session: the next message starts a new one anyway.",
        highlight=False,
    )
