"""Power and sample size of paired comparisons, and corrections for many comparisons.

A comparison of two runs on the same cases is McNemar's design: what moves the accuracy is the
cases whose verdict changed (the discordant pairs). Its power is computed with the normal
approximation of Connor (1987), "Sample size for testing differences in proportions for the
paired-sample design", Biometrics 43:207-211:

    n = (z_{1-α/2} √ψ + z_{1-β} √(ψ − δ²))² / δ²

where ψ is the share of discordant cases (regressions + fixes over the shared cases) and δ the
change in accuracy (fixes − regressions over the shared cases). The reports test with McNemar's
exact test, which is a little more conservative than the approximation at small n (the tests
measure by how much). Pure Python (statistics.NormalDist), so the default install needs no scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

ALPHA = 0.05
POWER = 0.80
# The share of cases whose verdict changes between two versions, assumed when no comparison
# has measured it: classifier v1 -> v2 moved 18% of prompt_smoke's cases on Qwen
# (reports/comparisons/classifier-v1-v2.md). A higher share needs more cases for a change.
DEFAULT_DISCORDANCE = 0.20
METHOD = "Connor (1987) normal approximation for McNemar's test"
MULTIPLE = "Holm–Bonferroni"

_N = NormalDist()


def _z(alpha: float, power: float) -> tuple[float, float]:
    _check(alpha, "alpha")
    _check(power, "power")
    return _N.inv_cdf(1 - alpha / 2), _N.inv_cdf(power)


def _check(value: float, name: str) -> None:
    # a discordance may be 1 (every case changed); a level or a power may not
    top_ok = name == "discordance" and value == 1
    if not (0 < value < 1 or top_ok):
        raise ValueError(f"{name} = {value} is not between 0 and 1")


def mcnemar_power(n: int, effect: float, discordance: float, alpha: float = ALPHA) -> float:
    """The chance that n paired cases show a change of `effect` at two-sided level alpha."""
    _check(discordance, "discordance")
    delta = abs(effect)
    if delta > discordance:
        raise ValueError(
            f"a change of {delta:.3f} needs at least that share of cases to change "
            f"(discordance {discordance:.3f})"
        )
    if delta == 0:
        return alpha  # no change: the test rejects at its level
    if n <= 0:
        return 0.0
    z_alpha = _N.inv_cdf(1 - alpha / 2)
    spread = math.sqrt(discordance - delta * delta)
    if spread == 0:
        return 1.0
    return _N.cdf((delta * math.sqrt(n) - z_alpha * math.sqrt(discordance)) / spread)


def mcnemar_sample_size(
    effect: float, discordance: float, alpha: float = ALPHA, power: float = POWER
) -> int:
    """The least number of paired cases that detect a change of `effect` (Connor 1987)."""
    _check(discordance, "discordance")
    delta = abs(effect)
    if not 0 < delta <= discordance:
        raise ValueError(
            f"the change {effect} must be non-zero and at most the discordance {discordance}"
        )
    z_alpha, z_beta = _z(alpha, power)
    root = z_alpha * math.sqrt(discordance) + z_beta * math.sqrt(discordance - delta * delta)
    return math.ceil(root * root / (delta * delta) - 1e-9)


def mcnemar_mde(
    n: int, discordance: float, alpha: float = ALPHA, power: float = POWER
) -> float | None:
    """The least change in accuracy that n paired cases detect with the given power, when at
    least the given share of cases changes verdict; None when no change is detectable.

    A change of δ moves at least a share δ of the cases, so past the given discordance the
    discordance grows with the change (ψ = max(discordance, δ)); the condition is monotone in δ
    on both sides, so bisection finds the least δ.
    """
    _check(discordance, "discordance")
    z_alpha, z_beta = _z(alpha, power)
    if n < least_exact_n(alpha):
        return None  # the exact test cannot reject even when every case changes one way

    def short(delta: float) -> float:  # >= 0 once delta is detectable
        psi = max(discordance, delta)
        return (
            delta * math.sqrt(n)
            - z_beta * math.sqrt(max(0.0, psi - delta * delta))
            - z_alpha * math.sqrt(psi)
        )

    if short(1.0) < 0:
        return None
    lo, hi = 0.0, 1.0
    for _ in range(60):  # bisection to ~1e-18
        mid = (lo + hi) / 2
        if short(mid) < 0:
            lo = mid
        else:
            hi = mid
    return hi


def least_exact_n(alpha: float = ALPHA) -> int:
    """The fewest cases on which McNemar's exact test can reach p < alpha: all changed one
    way, p = 2 / 2^n (6 cases at α 0.05)."""
    n = 1
    while 2.0 ** (1 - n) >= alpha:
        n += 1
    return n


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (family-wise error), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (false discovery rate), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    adjusted = [0.0] * m
    running = 1.0
    for back, i in enumerate(order):
        rank = m - back
        running = min(running, min(1.0, m * pvalues[i] / rank))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class PairedPower:
    """What a paired comparison could detect, and whether its change is a finding."""

    n: int
    regressions: int
    fixes: int
    p: float
    mde: float | None
    discordance: float
    measured: bool  # False: the default discordance, since no case changed

    @property
    def delta(self) -> float:
        """The change in accuracy on the shared cases."""
        return (self.fixes - self.regressions) / self.n if self.n else 0.0

    @property
    def finding(self) -> bool:
        """The change is more than noise at level ALPHA."""
        return self.regressions + self.fixes > 0 and self.p < ALPHA

    @property
    def verdict(self) -> str:
        """'finding: better' | 'finding: worse' | 'within noise'."""
        if not self.finding:
            return "within noise"
        return "finding: better" if self.delta > 0 else "finding: worse"

    def mde_text(self) -> str:
        """The minimum detectable effect in points, e.g. '±12.3 pts'."""
        return "none detectable" if self.mde is None else f"±{self.mde * 100:.1f} pts"

    def sentence(self) -> str:
        """The verdict in words, with what the comparison could have detected."""
        source = (
            f"observed discordance {self.discordance:.0%}"
            if self.measured
            else f"no case changed, so at the assumed discordance {self.discordance:.0%}"
        )
        can = (
            "no change is detectable"
            if self.mde is None
            else f"changes of {self.mde * 100:.1f} points or more are detectable"
        )
        return (
            f"{self.verdict}: {self.delta * 100:+.1f} points (McNemar exact p {self.p:.3g}); "
            f"at {self.n} shared cases and {source}, {can} (80% power, α {ALPHA}, {METHOD})"
        )

    def as_json(self) -> dict[str, object]:
        """The figures for --json and results."""
        return {
            "n": self.n,
            "regressions": self.regressions,
            "fixes": self.fixes,
            "change": round(self.delta, 4),
            "mcnemar_exact_p": round(self.p, 6),
            "discordance": round(self.discordance, 4),
            "discordance_measured": self.measured,
            "mde": None if self.mde is None else round(self.mde, 4),
            "power": POWER,
            "alpha": ALPHA,
            "method": METHOD,
            "verdict": self.verdict,
        }


def paired_power(n: int, regressions: int, fixes: int, p: float) -> PairedPower:
    """The power figures of a comparison on n shared cases with these discordant counts."""
    changed = regressions + fixes
    measured = changed > 0
    discordance = changed / n if measured and n else DEFAULT_DISCORDANCE
    mde = mcnemar_mde(n, discordance) if n else None
    return PairedPower(n, regressions, fixes, p, mde, discordance, measured)
