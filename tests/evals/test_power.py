"""Power, sample size and multiple comparisons, checked against a published value and a
seeded simulation of the tests they describe, and Holm / Benjamini–Hochberg by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evals.power import (
    DEFAULT_DISCORDANCE,
    benjamini_hochberg,
    holm,
    mcnemar_mde,
    mcnemar_power,
    mcnemar_sample_size,
    paired_power,
)
from evals.stats import mcnemar_exact

Z = 1.959963984540054
REPS = 40_000  # the simulated power's standard error is at most 0.0025


def _counts(n: int, discordance: float, effect: float, seed: int) -> tuple[np.ndarray, ...]:
    """Regressions and fixes of REPS simulated comparisons of n paired cases."""
    rng = np.random.default_rng(seed)
    fixes, regressions = (discordance + effect) / 2, (discordance - effect) / 2
    drawn = rng.multinomial(n, [fixes, regressions, 1 - discordance], size=REPS)
    return drawn[:, 1], drawn[:, 0]


def simulated_asymptotic_power(n: int, discordance: float, effect: float, seed: int) -> float:
    """McNemar's z test (no continuity correction), the test Connor's formula describes."""
    worse, better = _counts(n, discordance, effect, seed)
    changed = worse + better
    z = np.abs(better - worse) / np.sqrt(np.maximum(changed, 1))
    return float((z > Z).mean())


def simulated_exact_power(n: int, discordance: float, effect: float, seed: int) -> float:
    """McNemar's exact test, as the reports run it (evals.stats.mcnemar_exact)."""
    worse, better = _counts(n, discordance, effect, seed)
    # the largest smaller count that still rejects, for each number of changed cases
    bound = np.full(n + 1, -1)
    for changed in range(1, n + 1):
        k = -1
        while k + 1 <= changed // 2 and mcnemar_exact(k + 1, changed - k - 1) < 0.05:
            k += 1
        bound[changed] = k
    return float((np.minimum(worse, better) <= bound[worse + better]).mean())


def test_sample_size_matches_connors_published_example():
    # Connor (1987), Biometrics 43:207-211, p. 209, as worked at powerandsamplesize.com
    # ("McNemar's Z-test, 2-sided"): p10 = 0.05, p01 = 0.45, α 0.05, 80% power -> 23 pairs.
    assert mcnemar_sample_size(0.05 - 0.45, 0.05 + 0.45) == 23
    # its power at 23 pairs, from the same page's formula
    delta, psi = 0.4, 0.5
    expected = 0.5 * math.erfc(-(delta * math.sqrt(23) - Z * math.sqrt(psi)) / math.sqrt(
        psi - delta**2) / math.sqrt(2))  # fmt: skip
    assert mcnemar_power(23, delta, psi) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("effect", "discordance"), [(0.05, 0.2), (0.1, 0.26), (0.05, 0.3)])
def test_the_formula_matches_a_simulation_of_the_test_it_describes(effect, discordance):
    # 50 or more expected discordant cases: the normal approximation holds to a point or so
    n = mcnemar_sample_size(effect, discordance)
    predicted = mcnemar_power(n, effect, discordance)
    assert 0.80 <= predicted < 0.81  # the least n reaching 80%
    simulated = simulated_asymptotic_power(n, discordance, effect, seed=n)
    assert simulated == pytest.approx(predicted, abs=0.012)


@pytest.mark.parametrize(("effect", "discordance"), [(0.1, 0.2), (0.08, 0.15), (0.2, 0.4)])
def test_with_few_discordant_cases_the_formula_understates_the_z_tests_power(effect, discordance):
    # 30 or so expected discordant cases: the z test has 82-83% power where Connor says 80%
    n = mcnemar_sample_size(effect, discordance)
    simulated = simulated_asymptotic_power(n, discordance, effect, seed=n)
    assert mcnemar_power(n, effect, discordance) < simulated < 0.84


def test_the_exact_test_the_reports_use_is_a_little_more_conservative():
    # Documented in docs/evals.md: at Connor's n the exact test has about 76-78% power.
    for effect, discordance in [(0.1, 0.26), (0.1, 0.2), (0.2, 0.3)]:
        n = mcnemar_sample_size(effect, discordance)
        simulated = simulated_exact_power(n, discordance, effect, seed=7)
        assert 0.74 < simulated < 0.80, (effect, discordance, n, simulated)


def test_the_minimum_detectable_effect_is_detected_with_80_percent_power():
    for n, discordance in [(50, 0.26), (218, 0.2), (150, 0.3)]:
        mde = mcnemar_mde(n, discordance)
        assert mde is not None and mde <= discordance
        assert mcnemar_power(n, mde, discordance) == pytest.approx(0.80, abs=1e-9)
        assert mcnemar_sample_size(mde * 1.0001, discordance) <= n
        assert mcnemar_sample_size(mde * 0.98, discordance) > n
    mde = mcnemar_mde(200, 0.2)
    assert mde is not None
    assert simulated_asymptotic_power(200, 0.2, mde, seed=3) == pytest.approx(0.80, abs=0.02)


def test_past_the_discordance_a_change_moves_that_many_cases():
    # 32 cases at 20% discordance cannot show a 20-point change; a larger change moves more
    # cases, and 22.8 points (22.8% of the cases changed, all one way) is detectable.
    mde = mcnemar_mde(32, 0.2)
    assert mde is not None and 0.2 < mde < 0.25
    assert mcnemar_power(32, mde, mde) == pytest.approx(0.80, abs=1e-9)
    assert mcnemar_mde(5, 0.2) is None  # five cases never reach p < 0.05: 2/32 = 0.0625
    assert mcnemar_mde(6, 0.2) is not None  # 2/64 = 0.031
    assert mcnemar_mde(0, 0.2) is None


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="at most the discordance"):
        mcnemar_sample_size(0.3, 0.2)
    with pytest.raises(ValueError, match=r"discordance = 0\.0 is not between 0 and 1"):
        mcnemar_mde(10, 0.0)
    with pytest.raises(ValueError, match=r"power = 1\.2"):
        mcnemar_sample_size(0.1, 0.2, power=1.2)


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1 = 0.04, 0.09, 0.08 -> 0.09 (monotone), 0.5
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.3, 0.6]) == pytest.approx([0.6, 0.6])
    assert holm([0.5, 0.9, 0.01]) == pytest.approx([1.0, 1.0, 0.03])
    assert holm([]) == []


def test_benjamini_hochberg_by_hand():
    # ranks 1..4: 0.01*4/1 = 0.04, 0.03*4/2 = 0.06, 0.04*4/3 = 0.0533, 0.5*4/4 = 0.5;
    # step-up minimum from the top: 0.04, 0.0533, 0.0533, 0.5
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.5]) == pytest.approx(
        [0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5]
    )
    assert benjamini_hochberg([0.02, 0.02, 0.02]) == pytest.approx([0.02, 0.02, 0.02])
    assert benjamini_hochberg([0.9, 0.6]) == pytest.approx([0.9, 0.9])


def test_a_comparison_says_finding_or_within_noise():
    # classifier v1 -> v2 on prompt_smoke: +10 points on 50 cases (7 fixes, 2 regressions)
    noise = paired_power(50, 2, 7, mcnemar_exact(2, 7))
    assert noise.verdict == "within noise" and noise.measured
    assert noise.discordance == pytest.approx(0.18)
    assert noise.mde_text() == "±16.4 pts"
    assert noise.sentence() == (
        "within noise: +10.0 points (McNemar exact p 0.18); at 50 shared cases and observed "
        "discordance 18%, changes of 16.4 points or more are detectable (80% power, α 0.05, "
        "Connor (1987) normal approximation for McNemar's test)"
    )
    better = paired_power(10, 1, 8, mcnemar_exact(1, 8))
    assert better.verdict == "finding: better"
    worse = paired_power(10, 8, 1, mcnemar_exact(8, 1))
    assert worse.verdict == "finding: worse"
    unchanged = paired_power(40, 0, 0, 1.0)
    assert unchanged.verdict == "within noise" and not unchanged.measured
    assert unchanged.discordance == DEFAULT_DISCORDANCE
    assert "no case changed, so at the assumed discordance 20%" in unchanged.sentence()
