"""The statistics every table uses: Wilson intervals, McNemar's exact test, and Wilcoxon's
signed-rank test. Pure Python: exact counts where scipy's defaults are exact, the normal
approximation where they are not, so the p-values match scipy.stats without installing it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
# scipy.stats.wilcoxon's default method: exact up to 50 pairs without ties or zeros, exact
# enumeration of the signs up to 13 pairs with them, the normal approximation otherwise.
WILCOXON_EXACT_MAX = 50
WILCOXON_ENUMERATE_MAX = 13


def wilson(passed: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for passed/n (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= passed <= n:
        raise ValueError(f"passed={passed} is not within 0..{n}")
    p = passed / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mcnemar_exact(regressions: int, fixes: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test on the discordant pairs at p = 0.5."""
    n = regressions + fixes
    if n == 0:
        return 1.0
    # At p = 0.5 the distribution is symmetric: twice the smaller tail, in exact integers.
    tail = sum(math.comb(n, i) for i in range(min(regressions, fixes) + 1))
    return min(1.0, 2 * tail / (1 << n))


def _average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing the mean of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def _sign_flip_p(ranks: list[float], r_plus: float) -> float:
    """Two-sided p of r_plus over all 2^n sign assignments, counted exactly.

    Ranks are whole or half numbers, so doubled they are integers and a subset-sum count of
    each total gives the null distribution without floating-point comparisons.
    """
    doubled = [round(2 * r) for r in ranks]
    counts = [0] * (sum(doubled) + 1)
    counts[0] = 1
    for r in doubled:
        for total in range(len(counts) - 1, r - 1, -1):
            counts[total] += counts[total - r]
    observed = round(2 * r_plus)
    everything = 1 << len(ranks)
    at_most = sum(counts[: observed + 1])
    at_least = sum(counts[observed:])
    return min(1.0, 2 * min(at_most, at_least) / everything)


def wilcoxon(x: Sequence[float], y: Sequence[float]) -> float:
    """Two-sided p-value of Wilcoxon's signed-rank test on paired x, y.

    Matches scipy.stats.wilcoxon(x, y) with its defaults (zero differences dropped, no
    continuity correction, method "auto"); NaN when every difference is zero.
    """
    if len(x) != len(y):
        raise ValueError(f"{len(x)} values against {len(y)}: the samples must be paired")
    diffs = [float(a) - float(b) for a, b in zip(x, y, strict=True)]
    nonzero = [d for d in diffs if d != 0]
    if not nonzero:
        return math.nan
    ranks = _average_ranks([abs(d) for d in nonzero])
    r_plus = sum(r for r, d in zip(ranks, nonzero, strict=True) if d > 0)
    tied = len(set(ranks)) < len(ranks)
    n = len(diffs)
    exact = n <= WILCOXON_EXACT_MAX and not tied and len(nonzero) == n
    if exact or (n <= WILCOXON_ENUMERATE_MAX):
        return _sign_flip_p(ranks, r_plus)
    m = len(nonzero)
    spans: dict[float, int] = {}
    for r in ranks:
        spans[r] = spans.get(r, 0) + 1
    tie_term = sum(t**3 - t for t in spans.values())
    se = math.sqrt((m * (m + 1) * (2 * m + 1) - tie_term / 2) / 24)
    z = (r_plus - m * (m + 1) / 4) / se
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))
