"""Cold embedding: compute the vectors a store lacks in batches, storing each batch as it goes.

A person with 10,000 facts and no stored vectors used to be embedded in one silent pass that
kept everything in memory until the end. Here the missing vectors are embedded in batches
(shortest texts first, so a batch pads little), each batch is committed in its own short
transaction, and a progress bar on stderr says how far it is: an interrupted run keeps every
batch it finished, and the next run embeds only the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from pipeline.memory.embeddings import Embedder
from pipeline.memory.search import is_current, stored_vectors
from pipeline.store import Store
from pipeline.store import embeddings as repo

BATCH = 256
# Fewer missing vectors than this take about a second: no bar for them.
PROGRESS_FROM = 512

Advance = Callable[[int], None]


def missing_vectors(
    store: Store, engagement_ids: Sequence[int], embedder: Embedder
) -> list[tuple[int, str]]:
    """(assertion id, content) of live assertions whose vector is missing or stale."""
    with store.read() as session:
        rows = repo.embedded_assertions(session, engagement_ids, embedder.model_name)
    return [
        (r.assertion_id, r.content) for r in rows if not is_current(r.stored, r.content, embedder)
    ]


@contextmanager
def progress_bar(total: int, enabled: bool = True) -> Iterator[Advance]:
    """A rich progress bar on stderr for `total` texts, or a silent counter."""
    if not enabled or total < PROGRESS_FROM:
        yield lambda _n: None
        return
    progress = Progress(
        TextColumn("embedding memories"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        task = progress.add_task("embedding", total=total)
        yield lambda n: progress.advance(task, n)


def fill_vectors(
    store: Store,
    engagement_ids: Sequence[int],
    embedder: Embedder,
    *,
    batch: int = BATCH,
    show_progress: bool = True,
) -> int:
    """Embed and store every missing or stale vector of these engagements; returns how many.

    Each batch is its own transaction, so whatever finished before an interruption is kept.
    """
    missing = sorted(missing_vectors(store, engagement_ids, embedder), key=lambda i: len(i[1]))
    with progress_bar(len(missing), show_progress) as advance:
        for start in range(0, len(missing), batch):
            items = missing[start : start + batch]
            vectors = embedder.embed([content for _, content in items])
            with store.write() as session:
                repo.save_vectors(
                    session, embedder.model_name, stored_vectors(embedder, items, vectors)
                )
            advance(len(items))
    return len(missing)
