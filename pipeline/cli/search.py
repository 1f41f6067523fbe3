"""`converse search`: semantic search over a person's memory (keyword + meaning + recency)."""

from __future__ import annotations

import json
import math

import typer
from rich.table import Table

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    checked_name,
    console,
    handles_errors,
    shown,
    store_for,
)
from pipeline.clock import utcnow
from pipeline.errors import InvalidMessage
from pipeline.memory.relative_time import relative_time
from pipeline.memory.search_defaults import DEFAULT_K, MIN_SIMILARITY
from pipeline.text import check_text

# As the MCP search tools: a query is a phrase, and it is echoed back in the results header.
MAX_QUERY_CHARS = 2_000


@handles_errors
def search(
    query: str = typer.Argument(..., help="What to look for, in your own words."),
    person: str = PersonOption,
    k: int = typer.Option(DEFAULT_K, "--k", help="At most this many results."),
    project: str | None = typer.Option(
        None,
        "--project",
        help="Only this project (default: personal memory and every project).",
        callback=checked_name,
    ),
    min_similarity: float = typer.Option(
        MIN_SIMILARITY, "--min-similarity", help="Leave out results less similar than this."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    db_url: str | None = DbOption,
) -> None:
    """Find held and committed memories by meaning; score = 0.7 similarity + 0.3 recency."""
    check_text(query, "the query")
    if not query.strip():
        raise InvalidMessage("the query is empty", "say what to look for")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidMessage(
            f"the query is {len(query):,} characters; the limit is {MAX_QUERY_CHARS:,}",
            "search for a shorter phrase",
        )
    if not math.isfinite(min_similarity) or not -1 <= min_similarity <= 1:
        raise InvalidMessage(
            f"--min-similarity is {min_similarity}; it must be a number from -1 to 1",
            f"pass e.g. --min-similarity {MIN_SIMILARITY}",
        )
    if k < 1:
        raise InvalidMessage(f"--k must be at least 1, not {k}", "pass --k 5")
    from pipeline.memory.search import search_memory  # numpy and the store: when it runs
    from pipeline.store.people import get_person, get_project, list_projects

    store = store_for(db_url)
    with store.read() as session:
        found = get_person(session, person)
        if project:
            scopes = {get_project(session, found, project).id: project}
        else:
            scopes = {p.id: p.name for p in list_projects(session, found)}
            if found.personal_engagement_id is not None:
                scopes[found.personal_engagement_id] = "personal"
    from pipeline.memory.backfill import fill_vectors
    from pipeline.providers.local import MiniLMEmbedder  # loads the model: only when searching

    embedder = MiniLMEmbedder()
    fill_vectors(store, list(scopes), embedder)  # missing vectors: in batches, each one kept
    with store.write() as session:
        hits = search_memory(
            session, list(scopes), query, embedder, k=k, min_similarity=min_similarity
        )
    if as_json:
        print(
            json.dumps(
                {
                    "query": query,
                    "results": [
                        {
                            "where": scopes[h.engagement_id],
                            "display_number": h.display_number,
                            "content": h.content,
                            "state": h.force.value,
                            "similarity": h.similarity,
                            "score": h.score,
                            "created_at": h.created_at.isoformat(),
                        }
                        for h in hits
                    ],
                },
                ensure_ascii=False,
            )
        )
        return
    if not hits:
        console.print(
            f"Nothing in {shown(person)}'s memory matches {shown(repr(query))}.", highlight=False
        )
        return
    table = Table(title=f"{shown(person)}: {shown(query)}", title_justify="left")
    for column in ("score", "similarity", "where", "#", "content", "state", "noted"):
        table.add_column(column)
    now = utcnow()
    for h in hits:
        table.add_row(
            f"{h.score:.3f}",
            f"{h.similarity:.3f}",
            shown(scopes[h.engagement_id]),
            str(h.display_number),
            shown(h.content),
            h.force.value,
            relative_time(h.created_at, now),
        )
    console.print(table)
