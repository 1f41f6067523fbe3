"""`converse stats`: counts of the operational events by op and node over time."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import typer
from rich.table import Table

from pipeline.cli.common import DbOption, checked_name, console, fail, handles_errors, shown
from pipeline.clock import as_utc, utcnow

_RELATIVE = re.compile(r"^(\d{1,5})([dh])$")


def since_moment(value: str, now: datetime) -> datetime:
    """`7d`, `24h`, or an ISO date or time (UTC unless it names a zone)."""
    relative = _RELATIVE.match(value.strip().lower())
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        return now - (timedelta(days=amount) if unit == "d" else timedelta(hours=amount))
    try:
        return as_utc(datetime.fromisoformat(value))
    except ValueError:
        raise fail(
            f"--since {value!r} is neither a duration nor a date — use e.g. 7d, 24h or 2026-11-01"
        ) from None


@handles_errors
def stats(
    person: str | None = typer.Option(
        None, "--person", "-p", help="Only this person's events.", callback=checked_name
    ),
    since: str = typer.Option("7d", "--since", help="From this long ago (7d, 24h) or a date."),
    by: str = typer.Option("day", "--by", help="day or hour (UTC)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    db_url: str | None = DbOption,
) -> None:
    """Count what the pipeline did to memory, by op and node, per day or hour."""
    period = by.lower()
    if period not in ("day", "hour"):
        raise fail(f"--by {by!r} is not day or hour — pass --by day or --by hour")
    start = since_moment(since, utcnow())
    from pipeline.cli.common import store_for
    from pipeline.store.events import event_counts, recall_rate
    from pipeline.store.people import get_person

    with store_for(db_url).read() as session:
        person_id = get_person(session, person).id if person is not None else None
        counts = event_counts(
            session, person_id=person_id, since=start, by="day" if period == "day" else "hour"
        )
        recall = recall_rate(session, person_id=person_id, since=start)
    if as_json:
        data = {
            "since": start.isoformat(),
            "by": period,
            "person": person,
            "counts": [
                {"period": c.bucket, "node": c.node, "op": c.op, "status": c.status, "n": c.count}
                for c in counts
            ],
            "recall": {
                "classified_turns": recall.classified,
                "fired": recall.fired,
                "found": recall.found,
                "rate": None if recall.rate is None else round(recall.rate, 4),
                "median_ms": recall.median_ms,
                "p95_ms": recall.p95_ms,
            },
        }
        print(json.dumps(data, ensure_ascii=False))
        return
    whose = f" for {shown(person)}" if person is not None else ""
    if not counts:
        console.print(f"No events since {start:%Y-%m-%d %H:%M} UTC{whose}.", highlight=False)
        return
    table = Table(
        title=f"Memory operations since {start:%Y-%m-%d %H:%M} UTC{whose}", title_justify="left"
    )
    for column in (f"{period} (UTC)", "node", "op", "status", "count"):
        table.add_column(column, justify="right" if column == "count" else "left")
    for c in counts:
        table.add_row(c.bucket, c.node, c.op, c.status, str(c.count))
    console.print(table)
    if recall.rate is not None:
        latency = (
            f"; latency median {recall.median_ms:g} ms, p95 {recall.p95_ms:g} ms"
            if recall.median_ms is not None and recall.p95_ms is not None
            else ""
        )
        console.print(
            f"On-demand recall: {recall.fired} of {recall.classified} classified turns "
            f"({recall.rate:.1%}), {recall.found} found something{latency}.",
            highlight=False,
        )
