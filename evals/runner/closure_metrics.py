"""A closure suite's figures over its cases: entity precision, recall and F1 per kind, routing
accuracy, thread resolution, narrative format and points.

Entity counts are pooled over the cases (micro-averaged). Intervals of F1 are 95% percentile
bootstrap intervals over cases (the cases are resampled with replacement, BOOTSTRAP times,
with a fixed seed so a report is the same on every build); those of rates are Wilson score
intervals on the counts. Errored rows have no extraction and are left out, as everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from evals.dataset.models import Gate
from evals.stats import wilson
from pipeline.conversation_models import ENTITY_KINDS

BOOTSTRAP = 1_000
SEED = 13


def prf(counts: Iterable[Mapping[str, int]]) -> tuple[float | None, float | None, float | None]:
    """Pooled precision, recall and F1; None where nothing was there to measure (precision
    with nothing extracted, recall with nothing expected, F1 with neither)."""
    expected = found = extracted = matching = 0
    for c in counts:
        expected += c["expected"]
        found += c["found"]
        extracted += c["extracted"]
        matching += c["matching"]
    precision = matching / extracted if extracted else None
    recall = found / expected if expected else None
    if not expected and not extracted:
        return precision, recall, None
    p, r = precision or 0.0, recall or 0.0
    return precision, recall, (2 * p * r / (p + r) if p + r else 0.0)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def bootstrap_f1(
    per_case: Sequence[Mapping[str, int]], resamples: Sequence[Sequence[int]]
) -> tuple[float, float] | None:
    """The 95% percentile interval of pooled F1 over resampled cases (None: no F1 at all)."""
    values = [f1 for sample in resamples if (f1 := prf(per_case[i] for i in sample)[2]) is not None]
    if not values:
        return None
    return (_percentile(values, 0.025), _percentile(values, 0.975))


def _rate(hits: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(hits, n)
    return {
        "hits": hits,
        "n": n,
        "rate": round(hits / n, 4) if n else None,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def closure_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every pooled figure of a closure group's scored rows."""
    scored = [
        r
        for r in rows
        if r["status"] != "error" and isinstance(r.get("got"), dict) and "metrics" in r["got"]
    ]
    # in case order, not finishing order, so the resamples pick the same cases on every build
    scored.sort(key=lambda r: (str(r.get("case_id", "")), int(r.get("epoch", 0))))
    cases = [r["got"]["metrics"] for r in scored]
    rng = random.Random(SEED)
    n = len(cases)
    resamples = [[rng.randrange(n) for _ in range(n)] for _ in range(BOOTSTRAP)] if n else []
    kinds: dict[str, Any] = {}
    for kind in ENTITY_KINDS:
        per_case = [m["kinds"][kind] for m in cases]
        precision, recall, f1 = prf(per_case)
        interval = bootstrap_f1(per_case, resamples)
        kinds[kind] = {
            "precision": _round(precision),
            "recall": _round(recall),
            "f1": _round(f1),
            "f1_ci95": None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
            **{key: sum(c[key] for c in per_case) for key in ("expected", "found", "extracted")},
            "matching": sum(c["matching"] for c in per_case),
        }
    res = [m["resolution"] for m in cases]
    correct = sum(r["correct"] for r in res)
    wrong = sum(r["wrong"] for r in res)
    missed = sum(r["missed"] for r in res)
    narrative = [m["narrative"] for m in cases]
    return {
        "cases": n,
        "entities": kinds,
        "absent_violations": sum(len(m["absent"]) for m in cases),
        "cases_with_absent": sum(1 for m in cases if m["absent"]),
        "routing": _rate(sum(1 for m in cases if m["routing"]["correct"]), n),
        "resolution": {
            "precision": _round(correct / (correct + wrong)) if correct + wrong else None,
            "recall": _round(correct / (correct + missed)) if correct + missed else None,
            "correct": correct,
            "wrong": wrong,
            "missed": missed,
            "kept_open_resolved": sum(len(r["kept_open_resolved"]) for r in res),
            "exact": _rate(sum(1 for r in res if not r["wrong"] and not r["missed"]), n),
        },
        "narrative_format": _rate(sum(1 for m in narrative if m["format_ok"]), n),
        "narrative_points": _rate(
            sum(m["covered"] for m in narrative), sum(m["points"] for m in narrative)
        ),
    }


def f1_gate_failures(where: str, metrics: Mapping[str, Any], gate: Gate | None) -> list[str]:
    """Each entity kind whose pooled F1 is under the suite's `gate.f1` bound."""
    if gate is None or not gate.f1:
        return []
    failures: list[str] = []
    for kind, bound in gate.f1.items():
        f1 = metrics["entities"][kind]["f1"]
        if f1 is None:
            failures.append(f"{where}: {kind} F1 not measurable (nothing expected or extracted)")
        elif f1 < bound:
            failures.append(f"{where}: {kind} F1 {f1:.3f} < gate {bound:.3f}")
    return failures
