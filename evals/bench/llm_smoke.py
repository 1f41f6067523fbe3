"""prompt_smoke through the embedded model: cases per minute, with requests decoded one at a
time or several together, and how the two sets of answers compare.

Each measurement starts from a freshly loaded model (load time excluded, the cold prefix
included, as an eval run pays it), sends the suite's cases with as many threads as requests
decoded together, and scores every answer with the suite's own scorer, so a faster setting that
reads the cases differently shows as a change in accuracy and in agreement.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from evals.dataset.load import load_suites
from evals.dataset.models import ClassifyCase
from evals.power import paired_power
from evals.runner.targets import _history
from evals.scorers.classify import CLASSIFY
from evals.stats import mcnemar_exact
from pipeline.providers import ClassifyRequest
from pipeline.reading import ClassifiedIntent

SUITE = "prompt_smoke"


class Classifies(Protocol):
    """What the measurement needs of a classifier."""

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """The reading of one request."""
        ...


@dataclass(frozen=True)
class SmokeRun:
    """One pass over the cases: wall time, and each case's answer and verdict."""

    width: int
    seconds: float
    answers: tuple[tuple[str, dict[str, Any]], ...]  # (case id, intent and params)
    passed: tuple[bool, ...]
    degraded: int

    @property
    def cases_per_min(self) -> float:
        """Cases classified per minute of wall time."""
        return len(self.answers) / self.seconds * 60 if self.seconds else 0.0

    @property
    def accuracy(self) -> float:
        """Share of cases whose answer passes the suite's checks."""
        return sum(self.passed) / len(self.passed) if self.passed else 0.0


def smoke_cases(limit: int | None = None) -> list[ClassifyCase]:
    """The prompt_smoke cases in file order (the first `limit` of them)."""
    (suite,) = load_suites([SUITE])
    cases = [case for case in suite.cases if isinstance(case, ClassifyCase)]
    return cases[:limit] if limit else cases


def request_of(case: ClassifyCase) -> ClassifyRequest:
    """The request the eval runner sends for a classify case."""
    return ClassifyRequest(message=case.message, history=_history(case), project_name=case.project)


def _answer(classified: ClassifiedIntent) -> dict[str, Any]:
    return {"intent": classified.intent, "params": dict(classified.params)}


def measure(
    classifier: Classifies,
    cases: Sequence[ClassifyCase],
    width: int,
    clock: Callable[[], float] = time.perf_counter,
) -> SmokeRun:
    """Classify every case with `width` requests in flight; answers in case order."""
    started = clock()
    with ThreadPoolExecutor(max_workers=max(1, width)) as pool:
        results = list(pool.map(lambda case: classifier.classify(request_of(case)), cases))
    seconds = clock() - started
    answers = tuple((case.id, _answer(got)) for case, got in zip(cases, results, strict=True))
    passed = tuple(
        CLASSIFY(case.expect, answer).passed
        for case, (_, answer) in zip(cases, answers, strict=True)
    )
    degraded = sum(got.error is not None for got in results)
    return SmokeRun(width, seconds, answers, passed, degraded)


def agreement(one: SmokeRun, other: SmokeRun) -> dict[str, Any]:
    """How two passes over the same cases compare: identical answers, and the verdicts that
    changed (fixes and regressions of `other` against `one`)."""
    same = sum(a == b for a, b in zip(one.answers, other.answers, strict=True))
    fixes = sum(not a and b for a, b in zip(one.passed, other.passed, strict=True))
    regressions = sum(a and not b for a, b in zip(one.passed, other.passed, strict=True))
    changed = [
        case_id for (case_id, a), (_, b) in zip(one.answers, other.answers, strict=True) if a != b
    ]
    power = paired_power(len(one.passed), regressions, fixes, mcnemar_exact(regressions, fixes))
    return {
        "same_answers": same,
        "fixes": fixes,
        "regressions": regressions,
        "mcnemar_exact_p": round(power.p, 4),
        "mde": None if power.mde is None else round(power.mde, 4),
        "verdict": power.verdict,
        "changed_cases": changed,
    }
