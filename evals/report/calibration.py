"""How well the classifier's confidence predicts that its reading is right (docs/evals.md,
"Calibration"): expected calibration error and the reliability table per suite and overall.

Each message the classifier read in a run is one point: its `confidence` (the row's
`confidences`, evals/runner/rows.py) and whether the reading was right. Right means the
intents were: the reading-accuracy verdict on `intent` where the message has a gold reading
(evals/scorers/reading.py: the same intents in the same order), else the check its target's
spec names (`read_check`: a classify case's own `intent` check). A message with neither has
no verdict and is skipped, as is one
whose confidence is missing or not a number in [0, 1]; both are counted. Rows that errored,
replayed gold readings (`--reading gold`) or ran a perturbed message are left out: the first
have no reading, the second a reading that is not the provider's, and the third belong to
the robustness figures.

Confidences fall into equal-width bins ([0, 0.1), [0.1, 0.2), ... [0.9, 1.0] for 10; the last
bin holds 1.0). ECE = sum over the bins that hold a point of |accuracy - mean confidence| *
n_bin / n. Empty bins are not shown and add nothing.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evals.stats import wilson
from evals.targets import spec_if_known

DEFAULT_BINS = 10
ALL_SUITES = "(all suites)"
NO_CONFIDENCE, BAD_CONFIDENCE, NO_VERDICT = "no_confidence", "bad_confidence", "no_verdict"
SKIP_REASONS = (NO_CONFIDENCE, BAD_CONFIDENCE, NO_VERDICT)


@dataclass(frozen=True)
class Point:
    """One read message: the classifier's confidence and whether its reading was right."""

    confidence: float
    correct: bool


@dataclass(frozen=True)
class Bin:
    """One non-empty confidence bin of a reliability table."""

    lower: float
    upper: float
    n: int
    correct: int
    confidence: float  # the mean confidence of its points

    @property
    def accuracy(self) -> float:
        """correct / n."""
        return self.correct / self.n

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy."""
        return wilson(self.correct, self.n)

    def as_json(self) -> dict[str, Any]:
        """The bin as `--json` prints it."""
        lo, hi = self.ci95
        return {
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "n": self.n,
            "correct": self.correct,
            "confidence": round(self.confidence, 4),
            "accuracy": round(self.accuracy, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }


@dataclass(frozen=True)
class Calibration:
    """One suite (or every suite: ALL_SUITES) x provider x prompt variant."""

    suite: str
    provider: str  # the provider's label
    variant: str
    points: tuple[Point, ...]
    skipped: Mapping[str, int] = field(default_factory=dict)
    bins: int = DEFAULT_BINS

    @property
    def n(self) -> int:
        """Messages with a confidence and a verdict."""
        return len(self.points)

    @property
    def table(self) -> tuple[Bin, ...]:
        """The reliability table: its non-empty bins, lowest confidence first."""
        return reliability(self.points, self.bins)

    @property
    def ece(self) -> float | None:
        """Expected calibration error (None without points)."""
        return expected_calibration_error(self.points, self.bins)

    @property
    def mean_confidence(self) -> float | None:
        """The mean confidence over every point (None without points)."""
        return sum(p.confidence for p in self.points) / self.n if self.points else None

    @property
    def accuracy(self) -> float | None:
        """The share of points read right (None without points)."""
        return sum(p.correct for p in self.points) / self.n if self.points else None

    def as_json(self) -> dict[str, Any]:
        """The group as `converse eval --json` prints it under `calibration`."""

        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 4)

        return {
            "suite": self.suite,
            "provider_label": self.provider,
            "variant": self.variant,
            "n": self.n,
            "ece": rounded(self.ece),
            "mean_confidence": rounded(self.mean_confidence),
            "accuracy": rounded(self.accuracy),
            "skipped": {reason: self.skipped.get(reason, 0) for reason in SKIP_REASONS},
            "bins": [b.as_json() for b in self.table],
        }


def bin_of(confidence: float, bins: int = DEFAULT_BINS) -> int:
    """The equal-width bin a confidence in [0, 1] falls in (1.0 in the last)."""
    return min(int(confidence * bins), bins - 1)


def reliability(points: Sequence[Point], bins: int = DEFAULT_BINS) -> tuple[Bin, ...]:
    """Per non-empty bin: its bounds, points, right answers and mean confidence."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, not {bins}")
    members: dict[int, list[Point]] = defaultdict(list)
    for point in points:
        members[bin_of(point.confidence, bins)].append(point)
    return tuple(
        Bin(
            lower=k / bins,
            upper=(k + 1) / bins,
            n=len(found),
            correct=sum(p.correct for p in found),
            confidence=sum(p.confidence for p in found) / len(found),
        )
        for k, found in sorted(members.items())
    )


def expected_calibration_error(points: Sequence[Point], bins: int = DEFAULT_BINS) -> float | None:
    """sum over non-empty bins of |accuracy - mean confidence| * n_bin / n (None when there
    are no points)."""
    if not points:
        return None
    return sum(abs(b.accuracy - b.confidence) * b.n for b in reliability(points, bins)) / len(
        points
    )


def _verdicts(row: Mapping[str, Any]) -> dict[int, bool]:
    """Per turn, whether the intents were read right (see the module's docstring)."""
    found: dict[int, bool] = {}
    for scored in row.get("reading_scores") or []:
        fields = scored.get("fields") if isinstance(scored, Mapping) else None
        if isinstance(fields, Mapping) and "intent" in fields:
            found[int(scored.get("turn") or 1)] = bool(fields["intent"])
    spec = spec_if_known(str(row.get("target")))
    if spec is not None and spec.read_check is not None:
        for check in row.get("checks") or []:
            if check.get("name") == spec.read_check:
                found.setdefault(int(check.get("turn") or 1), bool(check.get("pass")))
    return found


def _usable(confidence: object) -> str | None:
    """Why a confidence cannot be used (None when it can)."""
    if confidence is None:
        return NO_CONFIDENCE
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return BAD_CONFIDENCE
    return None if math.isfinite(confidence) and 0.0 <= confidence <= 1.0 else BAD_CONFIDENCE


def row_points(row: Mapping[str, Any]) -> tuple[list[Point], Counter[str]]:
    """A row's points, and its messages skipped, by reason."""
    verdicts = _verdicts(row)
    points: list[Point] = []
    skipped: Counter[str] = Counter()
    for entry in row.get("confidences") or []:
        confidence = entry.get("confidence")
        turn = int(entry.get("turn") or 1)
        reason = _usable(confidence)
        if reason is None and turn not in verdicts:
            reason = NO_VERDICT
        if reason is not None:
            skipped[reason] += 1
        else:
            points.append(Point(float(confidence), verdicts[turn]))
    return points, skipped


def counted(row: Mapping[str, Any]) -> bool:
    """Whether a row's messages count (not an error, a gold replay or a perturbed message)."""
    return (
        row.get("status") != "error"
        and row.get("reading") != "gold"
        and not row.get("perturbation")
        and bool(row.get("confidences"))
    )


def calibrate(rows: Iterable[Mapping[str, Any]], bins: int = DEFAULT_BINS) -> list[Calibration]:
    """Per suite x provider x variant, then per provider x variant over every suite
    (ALL_SUITES); only groups whose rows read a message. Empty when no row did."""
    points: dict[tuple[str, str, str], list[Point]] = defaultdict(list)
    skipped: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for row in rows:
        if not counted(row):
            continue
        provider = str(row.get("provider_label") or row.get("provider") or "")
        variant = str(row.get("variant") or "")
        found, left = row_points(row)
        for suite in (str(row.get("suite")), ALL_SUITES):
            points[(suite, provider, variant)] += found
            skipped[(suite, provider, variant)] += left
    keys = sorted(points, key=lambda k: (k[0] == ALL_SUITES, k))
    return [Calibration(*key, tuple(points[key]), dict(skipped[key]), bins) for key in keys]


def calibration_json(groups: Sequence[Calibration]) -> dict[str, Any]:
    """What `converse eval --json` prints under `calibration`."""
    return {
        "bins": groups[0].bins if groups else DEFAULT_BINS,
        "groups": [g.as_json() for g in groups if g.suite != ALL_SUITES],
        "overall": [g.as_json() for g in groups if g.suite == ALL_SUITES],
    }
