"""How fast the reader loads and reads: `python -m pipeline.providers.reader.bench [--calls N]`."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from pipeline.providers.reader.encode import ReaderContext
from pipeline.providers.reader.model import Reader

# Messages of the lengths people type, with and without something pending.
SAMPLES: tuple[tuple[str, ReaderContext], ...] = (
    ("ok so my niece starts uni in sept, can u remember that?", ReaderContext()),
    (
        "nah its the 14th",
        ReaderContext("offer", "Want me to remember that your niece starts on the 4th?"),
    ),
    ("👍", ReaderContext("offer", "Should I keep a note that you cycle to work?")),
    ("1 and 3 pls", ReaderContext("offers", "Keep which? 1. A 2. B 3. C", False, 3)),
    (
        "Dear companion, I wish to let you know that I have relocated to Lisbon and would be "
        "grateful if you could note it. Also, what is a good way to learn Portuguese quickly?",
        ReaderContext(),
    ),
)


def bench(calls: int = 200, loads: int = 3) -> dict[str, Any]:
    """Median load seconds over `loads` loads, median and p95 ms per read over `calls` reads."""
    load_s = []
    reader = None
    for _ in range(loads):
        reader = Reader.load()
        load_s.append(reader.load_s)
    assert reader is not None
    for message, context in SAMPLES:  # warm up
        reader.read(message, context)
    took = []
    for i in range(calls):
        message, context = SAMPLES[i % len(SAMPLES)]
        started = time.perf_counter()
        reader.read(message, context)
        took.append((time.perf_counter() - started) * 1000)
    took.sort()
    return {
        "calls": calls,
        "read_median_ms": round(statistics.median(took), 2),
        "read_p95_ms": round(took[int(0.95 * len(took)) - 1], 2),
        "load_median_s": round(statistics.median(load_s), 3),
    }


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.providers.reader.bench")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(bench(args.calls)))


if __name__ == "__main__":
    main()
