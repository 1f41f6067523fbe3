"""`converse memory related`: the facts a personal fact is related to (docs/memory.md)."""

from __future__ import annotations

from rich.table import Table

from pipeline.cli.common import console, shown, store_for


def print_related(number: int, person: str, db_url: str | None) -> None:
    """The table of live facts related to the person's #number, and how many are hidden."""
    from pipeline.memory import manage
    from pipeline.memory.relations import related_facts
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        shelf = manage.personal_shelf(get_person(session, person))
        fact = manage.on_shelf(session, shelf, number)
        related, hidden = related_facts(session, fact.id)
    where = shown(shelf.where)
    if not related:
        console.print(f"#{number} in {where} is related to no live fact.", highlight=False)
    else:
        table = Table(title=f"Facts related to #{number} in {where}", title_justify="left")
        for column in ("#", "fact", "strength", "linked (UTC)"):
            table.add_column(column)
        for item in related:
            table.add_row(
                str(item.assertion.display_number),
                shown(item.assertion.content),
                f"{item.edge.strength:.2f}",
                f"{item.edge.created_at:%Y-%m-%d %H:%M}",
            )
        console.print(table)
    if hidden:
        console.print(
            f"{hidden} related fact(s) retracted or set aside are not shown.", highlight=False
        )
