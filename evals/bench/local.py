"""`converse bench local`: per-message latency of the local classifier after warm-up.

The model load is timed on its own (`load_s`); the median covers one classification each:
embedding the message, the probe and nearest examples, continuation rules and extraction.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from pipeline.domain import HistoryTurn, Role
from pipeline.providers import ClassifyRequest
from pipeline.providers.local import LocalClassifier, is_loaded, loaded_model

_OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that you're allergic to all shellfish — is that right?",
    intent="remember_about_me",
    operation_data={"action": "held", "personal_fact": "You're allergic to all shellfish"},
)
# A fixed mix of fresh messages and replies to an offer, written for the benchmark.
REQUESTS = (
    ClassifyRequest("I'm allergic to shellfish", project_name="Weeknight cooking"),
    ClassifyRequest("The soil pH should be 6.5", project_name="Backyard garden"),
    ClassifyRequest("what did I tell you about the oven temperature?", project_name="Baking"),
    ClassifyRequest("please forget that I live in Miami"),
    ClassifyRequest("show me everything noted for this project", project_name="Kitchen remodel"),
    ClassifyRequest("How long should I rest a steak after grilling?"),
    ClassifyRequest("Just so you know, I prefer working in the mornings"),
    ClassifyRequest("remind me to call the plumber on Friday"),
    ClassifyRequest("no, just shrimp", history=(_OFFER,)),
    ClassifyRequest("yes", history=(_OFFER,)),
)


def run(n: int = 300, warmup: int = 30) -> dict[str, Any]:
    """Measure the rule reader; returns the figures keyed as the issue names them."""
    already = is_loaded()
    started = time.perf_counter()
    classifier = LocalClassifier()
    classifier.warm_up()
    examples_s = time.perf_counter() - started
    figures = _timed(classifier, n, warmup)
    return {
        **figures,
        "load_s": round(loaded_model().load_s, 3),
        "examples_s": round(examples_s, 3),
        "model_loaded_before": already,
    }


def run_reader(n: int = 300, warmup: int = 30) -> dict[str, Any]:
    """Measure the trained reader: `load_s` is the encoder's and the heads' load with the
    hash checks (a fresh load, not the process's cached reader)."""
    from pipeline.providers.local_reader import ReaderClassifier
    from pipeline.providers.reader import Reader

    loaded = Reader.load()
    figures = _timed(ReaderClassifier(loaded=loaded), n, warmup)
    return {**figures, "load_s": round(loaded.load_s, 3), "provider": "local-reader"}


def _timed(classifier: Any, n: int, warmup: int) -> dict[str, Any]:
    """Median and p95 ms of `n` classifications of the fixed mix, after `warmup` of them."""
    for i in range(warmup):
        classifier.classify(REQUESTS[i % len(REQUESTS)])
    timings = []
    for i in range(n):
        request = REQUESTS[i % len(REQUESTS)]
        begun = time.perf_counter()
        classifier.classify(request)
        timings.append((time.perf_counter() - begun) * 1000)
    ordered = sorted(timings)
    return {
        "median_ms": round(statistics.median(timings), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "n": n,
    }
