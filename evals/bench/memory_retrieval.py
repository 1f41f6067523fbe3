"""`converse bench memory-retrieval`: what memory-aware classification adds to a turn when
the person has many conversation memories (specification 003: < 100 ms at 10,000).

A temporary SQLite store gets one person with `n` confirmed memories — narratives composed
from varied everyday parts, each embedded by the real local model (MiniLM, ONNX) and stored as
the review would store it — and one open thread per 10 memories. Then `queries` messages are
prepared for classification (`classification_notes`: embed the message, hybrid search of the
memories, the open threads it touches), and the time of each is taken. `build_ms` is the first
call, which loads and indexes every memory; the percentiles are the calls after it, as a
long-running process (chat, MCP server) makes them.
"""

from __future__ import annotations

import hashlib
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from evals.bench.output import machine, percentile
from pipeline.clock import utcnow
from pipeline.conversation_models import MemoryStatus
from pipeline.conversations.recall import classification_notes
from pipeline.memory.embeddings import embedder_id, to_bytes
from pipeline.providers.local import MiniLMEmbedder
from pipeline.store import (
    ConversationRow,
    MemoryEmbeddingRow,
    MemoryEntityRow,
    MemoryRow,
    create_person,
    open_store,
    your_story,
)

WHO = ("Dana", "my sister", "Sam from work", "the landlord", "Dr. Okafor", "Lila's teacher")
DID = (
    "decided to",
    "agreed to",
    "is still waiting to",
    "talked through whether to",
    "postponed the plan to",
    "finally managed to",
)
WHAT = (
    "repaint the hallway in a warm grey",
    "book the ferry to the islands for August",
    "move the piano lessons to Thursdays",
    "replace the leaking kitchen tap",
    "switch the team's deploys to Mondays",
    "start physiotherapy for the left knee",
    "sell the old bike before the move",
    "plan a small party for the twins' birthday",
    "finish the grant report draft",
    "learn enough Portuguese for the trip",
)
WHY = (
    "because the budget is tight this month",
    "so the weekends stay free",
    "after the last attempt went badly",
    "since the quote came in lower than expected",
    "before prices go up in spring",
)
QUERIES = (
    "did Dana ever get back to me about the hallway paint?",
    "what did we settle about the ferry booking?",
    "remind me why the piano lessons moved",
    "any news on the kitchen tap?",
    "how is the knee physio going",
    "lovely weather today",
    "I want to talk about the party for the twins",
    "should I still sell the bike",
)


def narratives(n: int) -> list[str]:
    """`n` distinct, varied narratives."""
    parts = itertools.cycle(itertools.product(WHO, DID, WHAT, WHY))
    return [
        f"Ana and {w} {d} {x} {y} (note {i})."
        for i, (w, d, x, y) in zip(range(n), parts, strict=False)
    ]


def _seed(url: str, n: int, embedder: MiniLMEmbedder) -> int:
    store = open_store(url)
    now = utcnow()
    texts = narratives(n)
    with store.write() as session:
        person = create_person(session, "ana")
        story = your_story(session, person.id).id
        conversation = ConversationRow(
            person_id=person.id, status="archived", started_at=now, message_count=0
        )
        session.add(conversation)
        session.flush()
        session.execute(
            insert(MemoryRow),
            [
                {
                    "id": i + 1,
                    "person_id": person.id,
                    "conversation_id": conversation.id,
                    "destination_id": story,
                    "status": MemoryStatus.CONFIRMED.value,
                    "narrative": t,
                    "original_narrative": t,
                    "method": "bench",
                    "created_at": now,
                    "confirmed_at": now,
                }
                for i, t in enumerate(texts)
            ],
        )
        session.execute(
            insert(MemoryEntityRow),
            [
                {
                    "memory_id": i + 1,
                    "person_id": person.id,
                    "kind": "waiting_on",
                    "text": f"{WHO[i % len(WHO)]}: {WHAT[i % len(WHAT)]}",
                    "data": {},
                    "status": "active",
                    "created_at": now,
                }
                for i in range(0, n, 10)
            ],
        )
    made_by = embedder_id(embedder)
    batch = 256
    for start in range(0, n, batch):
        chunk = texts[start : start + batch]
        vectors = embedder.embed(chunk)
        with store.write() as session:
            session.execute(
                insert(MemoryEmbeddingRow),
                [
                    {
                        "memory_id": start + j + 1,
                        "model": embedder.model_name,
                        "embedder": made_by,
                        "dim": embedder.dim,
                        "content_sha256": hashlib.sha256(t.encode()).hexdigest(),
                        "vector": to_bytes(v),
                        "created_at": now,
                    }
                    for j, (t, v) in enumerate(zip(chunk, vectors, strict=True))
                ],
            )
        print(f"embedded {min(start + batch, n):,} of {n:,} narratives", file=sys.stderr)
    store.dispose()
    return person.id


def run(n: int = 10_000, queries: int = 200) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them."""
    embedder = MiniLMEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'memories.db'}"
        person_id = _seed(url, n, embedder)
        store = open_store(url)
        embedder.embed(["warm"])
        started = time.perf_counter()
        first = classification_notes(store, person_id, QUERIES[0], embedder)
        build_ms = (time.perf_counter() - started) * 1000
        timings = []
        shown = []
        for i in range(queries):
            started = time.perf_counter()
            notes = classification_notes(store, person_id, QUERIES[i % len(QUERIES)], embedder)
            timings.append((time.perf_counter() - started) * 1000)
            shown.append(len(notes))
        store.dispose()
    return {
        "n": n,
        "queries": queries,
        "p95_ms": round(percentile(timings, 95), 2),
        "median_ms": round(statistics.median(timings), 2),
        "build_ms": round(build_ms, 1),
        "notes_per_query": round(statistics.mean(shown), 2),
        "first_notes": len(first),
        "machine": machine(),
    }
