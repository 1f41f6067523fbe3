"""`converse bench llm`'s prompt_smoke measurement on stub classifiers: answers kept in case
order whatever the width, scored with the suite's scorer, and two passes compared."""

from __future__ import annotations

import threading
import time
from itertools import count

from evals.bench.llm_smoke import SmokeRun, agreement, measure, smoke_cases
from pipeline.providers.base import ClassifyRequest
from pipeline.reading import ClassifiedIntent


class _Oracle:
    """Answers each case with its expected intent (and a value holding every needle); the
    listed messages get general_conversation instead. Pauses so that requests overlap."""

    def __init__(self, wrong: frozenset[str] = frozenset()) -> None:
        self.expected = {case.message: case for case in smoke_cases()}
        self.wrong = wrong
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(0.005)
        with self.lock:
            self.now -= 1
        case = self.expected[request.message]
        if request.message in self.wrong or case.expect.intent is None:
            return ClassifiedIntent(intent="general_conversation", params={}, provider="stub")
        params = {
            name: " ".join(check.contains) or "x" for name, check in case.expect.params.items()
        }
        return ClassifiedIntent(intent=case.expect.intent, params=params, provider="stub")


def test_answers_keep_case_order_and_are_scored_at_any_width() -> None:
    cases = smoke_cases(12)
    serial = measure(_Oracle(), cases, 1)
    oracle = _Oracle()
    together = measure(oracle, cases, 4)
    assert oracle.peak > 1
    assert [case_id for case_id, _ in together.answers] == [case.id for case in cases]
    assert together.answers == serial.answers
    assert together.accuracy == serial.accuracy > 0.5


def test_cases_per_minute_is_cases_over_wall_time() -> None:
    ticks = count(0.0, 30.0)  # the pass starts at 0 s and ends at 30 s
    run = measure(_Oracle(), smoke_cases(5), 1, clock=lambda: next(ticks))
    assert run.seconds == 30.0
    assert run.cases_per_min == 10.0


def test_agreement_counts_changed_answers_fixes_and_regressions() -> None:
    cases = smoke_cases(10)
    right = measure(_Oracle(), cases, 2)
    wrong = measure(_Oracle(frozenset({cases[0].message, cases[1].message})), cases, 2)
    assert right.passed[0] and not wrong.passed[0]
    found = agreement(right, wrong)
    assert found["same_answers"] == 8
    assert found["regressions"] == 2
    assert found["fixes"] == 0
    assert found["changed_cases"] == [cases[0].id, cases[1].id]
    assert found["verdict"] == "within noise"
    assert agreement(wrong, right)["fixes"] == 2


def test_an_empty_pass_reports_zero_rather_than_dividing_by_it() -> None:
    empty = SmokeRun(width=1, seconds=0.0, answers=(), passed=(), degraded=0)
    assert empty.cases_per_min == 0.0
    assert empty.accuracy == 0.0
