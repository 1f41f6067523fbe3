"""The statistics every table uses: Wilson intervals and McNemar's exact test."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


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
    discordant = regressions + fixes
    if discordant == 0:
        return 1.0
    from scipy.stats import binomtest  # scipy is slow to import; only comparisons need it

    return float(binomtest(min(regressions, fixes), discordant, 0.5).pvalue)
