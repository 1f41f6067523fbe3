"""`converse status ...`: a person's status notes (what they reported about ongoing things)."""

from __future__ import annotations

import json

import typer
from rich.markup import escape
from rich.table import Table

from pipeline.cli.common import DbOption, PersonOption, console, handles_errors, store_for

status_app = typer.Typer(
    help="List or clear a person's status notes (shown to the companion every turn).",
    no_args_is_help=True,
)


@status_app.command("list")
@handles_errors
def status_list(
    person: str = PersonOption,
    history: bool = typer.Option(False, "--history", help="Include notes replaced by later ones."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    db_url: str | None = DbOption,
) -> None:
    """Print the person's current status notes, newest first."""
    from pipeline.clock import utcnow
    from pipeline.memory.relative_time import relative_time
    from pipeline.store.people import get_person
    from pipeline.store.status import current_notes, note_history

    with store_for(db_url).read() as session:
        found = get_person(session, person)
        notes = note_history(session, found.id) if history else current_notes(session, found.id)
    if as_json:
        rows = [
            {
                "topic": n.topic,
                "text": n.text,
                "reported_at": n.created_at.isoformat(),
                "replaced_at": n.replaced_at.isoformat() if n.replaced_at else None,
            }
            for n in notes
        ]
        typer.echo(json.dumps({"person": person, "notes": rows}, ensure_ascii=False))
        return
    if not notes:
        console.print(f"No status notes for {escape(person)}.", highlight=False)
        return
    now = utcnow()
    table = Table("topic", "status", "reported", *(["replaced"] if history else []))
    for n in notes:
        replaced = [relative_time(n.replaced_at, now) if n.replaced_at else ""] if history else []
        table.add_row(escape(n.topic), escape(n.text), relative_time(n.created_at, now), *replaced)
    console.print(table)


@status_app.command("clear")
@handles_errors
def status_clear(
    person: str = PersonOption,
    topic: str | None = typer.Option(None, "--topic", help="Only this topic (default: all)."),
    db_url: str | None = DbOption,
) -> None:
    """Delete the person's status notes (one topic's, or all), their history included."""
    from pipeline.english import ENGLISH
    from pipeline.memory.status import topic_key
    from pipeline.store.people import get_person
    from pipeline.store.status import clear_notes

    # the command line speaks English, as every registered provider's conversations do
    key = topic_key(topic, ENGLISH.topic_openers) if topic is not None else None
    store = store_for(db_url)
    with store.write() as session:
        found = get_person(session, person)
        gone = clear_notes(session, found.id, key)
    store.checkpoint()  # no old copy of a cleared note stays in the SQLite WAL
    what = f"on {key!r} " if key is not None else ""
    console.print(
        f"Cleared {gone} status note(s) {escape(what)}for {escape(person)}.", highlight=False
    )
