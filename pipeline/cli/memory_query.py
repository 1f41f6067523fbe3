"""`converse memory query`: memory.query from the command line (docs/memory.md)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from pipeline.cli.common import DbOption, PersonOption, console, fail, shown, store_for
from pipeline.text import check_text

if TYPE_CHECKING:
    from pipeline.memory.query import QueryItem

# The defaults of pipeline/memory/query.py, repeated so `--help` needs no store import.
_DEFAULT_TOP_K = 5
_DEFAULT_BUDGET = 512
_DEFAULT_THRESHOLD = 0.30


def _when(value: str | None, option: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise fail(
            f"{option} {value!r} is not a date — use YYYY-MM-DD or YYYY-MM-DDTHH:MM"
        ) from None


def _pinned(value: str | None) -> bool | None:
    if value is None:
        return None
    flag = value.lower()
    if flag not in ("yes", "no"):
        raise fail(f"--pinned {value!r} is not yes or no — pass --pinned yes or --pinned no")
    return flag == "yes"


def query_command(
    query: str = typer.Argument("", help="What to look for (empty: filter only, newest first)."),
    person: str = PersonOption,
    agent: str = typer.Option(
        "companion", "--agent", help="Who reads: its allowlist (pipeline/categories.yaml) applies."
    ),
    category: list[str] = typer.Option(
        [], "--category", "-c", help="Only this category (repeat for more)."
    ),
    pinned: str | None = typer.Option(None, "--pinned", help="yes: only pinned; no: only not."),
    importance_min: float | None = typer.Option(None, "--importance-min", help="0..1"),
    importance_max: float | None = typer.Option(None, "--importance-max", help="0..1"),
    updated_after: str | None = typer.Option(None, "--updated-after", help="YYYY-MM-DD[THH:MM]"),
    updated_before: str | None = typer.Option(None, "--updated-before", help="YYYY-MM-DD[THH:MM]"),
    top_k: int = typer.Option(_DEFAULT_TOP_K, "--top-k", help="At most this many results."),
    threshold: float = typer.Option(
        _DEFAULT_THRESHOLD, "--threshold", help="Leave out results less similar than this."
    ),
    mode: str = typer.Option("bullets", "--mode", help="bullets or full."),
    budget_tokens: int = typer.Option(
        _DEFAULT_BUDGET, "--budget-tokens", help="At most this many tokens (4 characters each)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    db_url: str | None = DbOption,
) -> None:
    """Query a person's memory with filters, as an agent whose allowlist applies."""
    from pydantic import ValidationError

    from pipeline.errors import InvalidMessage
    from pipeline.memory.query import MemoryQuery, memory_query

    check_text(query, "the query")
    try:
        request = MemoryQuery(
            person=person,
            agent=agent,
            query=query,
            categories=tuple(category) if category else None,
            pinned=_pinned(pinned),
            importance_min=importance_min,
            importance_max=importance_max,
            updated_after=_when(updated_after, "--updated-after"),
            updated_before=_when(updated_before, "--updated-before"),
            top_k=top_k,
            threshold=threshold,
            mode=mode.lower(),
            budget_tokens=budget_tokens,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the request"
        raise InvalidMessage(
            f"{where.replace('_', '-')}: {first['msg']}", "see `converse memory query --help`"
        ) from None
    embedder = None
    if query.strip():
        from pipeline.providers.local import MiniLMEmbedder  # the model: only for a text query

        embedder = MiniLMEmbedder()
    with store_for(db_url).write() as session:
        result = memory_query(session, request, embedder)
    if as_json:
        print(json.dumps(result.shown(), ensure_ascii=False))
        return
    if not result.items:
        console.print(f"Nothing in {shown(person)}'s memory passes the filters.", highlight=False)
    elif result.mode == "bullets":
        for item in result.items:
            console.print(f"- {shown(item.text)}", highlight=False)
    else:
        console.print(_full_table(result.items, person))
    if result.omitted_for_budget:
        console.print(
            f"{result.omitted_for_budget} more left out by the budget of "
            f"{result.budget_tokens} tokens — pass a larger --budget-tokens",
            highlight=False,
        )


def _full_table(items: tuple[QueryItem, ...], person: str) -> Table:
    table = Table(title=f"{shown(person)}'s memory", title_justify="left")
    for column in ("id", "where", "#", "category", "content", "pinned", "importance", "score"):
        table.add_column(column)
    for item in items:
        table.add_row(
            str(item.id),
            shown(item.where),
            str(item.display_number),
            item.category,
            shown(item.content),
            "yes" if item.pinned else "",
            f"{item.importance:g}",
            "" if item.score is None else f"{item.score:.3f}",
        )
    return table
