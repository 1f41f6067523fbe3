"""`converse bench conversation`: a 1,000-turn conversation, to show compaction keeps the cost
of a turn flat however long the conversation runs.

One person talks outside any project for `turns` turns with the scripted provider (no model
latency) and the default settings; compaction folds older turns with the extractive summarizer
(no model). `flatness_ratio` is the median time of the last 100 turns (which span at least one
compaction cycle, history long and short) ÷ the median of the 40 turns from turn 10;
`peak_mb` is the process's peak resident memory.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from pipeline.converse import converse
from pipeline.providers import Providers, ScriptedProvider
from pipeline.store import create_person, open_store

EARLY, LATE = 40, 100
# Varied messages of everyday length, so the history grows as a real one would.
MESSAGES = (
    "The car is still at the shop, they said Friday at the earliest.",
    "I started the tiling in the bathroom today, it is slower than I thought.",
    "Remind me what we said about the dentist appointment?",
    "Lila has a school play on Thursday evening and I promised to be there.",
    "I am thinking about taking the train to Porto next month instead of driving.",
)


def run(turns: int = 1_000) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them."""
    provider = ScriptedProvider([])  # every message: general conversation, a composed reply
    compactions = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        with store.write() as session:
            create_person(session, "ana")
            create_person(session, "warm-up")
        for i in range(50):  # warms statement and template caches, so turn 10 is not a cold turn
            converse(
                store,
                person="warm-up",
                message=MESSAGES[i % len(MESSAGES)],
                providers=Providers.of(provider, provider),
            )
        timings = []
        for i in range(turns):
            started = time.perf_counter()
            outcome = converse(
                store,
                person="ana",
                message=f"{MESSAGES[i % len(MESSAGES)]} ({i + 1})",
                providers=Providers.of(provider, provider),
            )
            timings.append((time.perf_counter() - started) * 1000)
            compactions += outcome.compacted is not None
        store.dispose()
    early = statistics.median(timings[9 : 9 + EARLY])
    late = statistics.median(timings[-LATE:])
    return {
        "flatness_ratio": round(late / early, 3),
        "turn_10_ms": round(early, 3),
        "turn_last_ms": round(late, 3),
        "median_ms": round(statistics.median(timings), 3),
        "compactions": compactions,
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "n": turns,
    }
