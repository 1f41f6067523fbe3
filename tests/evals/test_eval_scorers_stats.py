"""Scorers return evidence for every check; the statistics match known values."""

from __future__ import annotations

import math

import pytest

from evals.dataset.models import (
    ClassifyExpect,
    ForgetExpect,
    MemoryBlockExpect,
)
from evals.scorers import CLASSIFY, FORGET_MATCH, MEMORY_BLOCK
from evals.stats import mcnemar_exact, wilcoxon, wilson


def test_classify_checks_intent_and_params_case_insensitively():
    expect = ClassifyExpect.model_validate(
        {"intent": "remember_about_me",
         "params": {"personal_fact": {"contains": ["Shrimp"], "excludes": ["shellfish"]}}}
    )  # fmt: skip
    good = CLASSIFY(
        expect, {"intent": "remember_about_me", "params": {"personal_fact": "allergic to SHRIMP"}}
    )
    assert good.passed and good.why == ""
    assert [c.name for c in good.checks] == [
        "intent",
        "params.personal_fact contains",
        "params.personal_fact excludes",
    ]
    assert (good.scorer, good.version) == ("classify_intent_params", 1)

    bad = CLASSIFY(
        expect,
        {"intent": "remember_about_me", "params": {"personal_fact": "All Shellfish, shrimp too"}},
    )
    assert not bad.passed
    assert "has 'shellfish'" in bad.why
    failed = [c for c in bad.checks if not c.passed]
    assert failed[0].expected == "shellfish" and failed[0].got == "All Shellfish, shrimp too"


def test_classify_missing_param_and_wrong_intent_are_explained():
    expect = ClassifyExpect.model_validate(
        {"intent": "add_knowledge", "params": {"knowledge": {"contains": ["220"]}}}
    )
    score = CLASSIFY(expect, {"intent": "remember_about_me", "params": {}})
    assert not score.passed
    assert "intent remember_about_me, expected add_knowledge" in score.why
    assert "no params.knowledge" in score.why


def test_memory_block_checks_order_size_and_emptiness():
    block = "PERSONAL MEMORY\nThings you've told me about yourself:\n- A (noted just now)\n- B (noted yesterday)"
    expect = MemoryBlockExpect(
        includes=["- A (noted just now)"], excludes=["C"], order=["- A", "- B"],
        max_chars=2000, exact_chars=len(block),
    )  # fmt: skip
    assert MEMORY_BLOCK(expect, {"block": block}).passed
    wrong = MemoryBlockExpect(order=["- B", "- A"], exact_chars=len(block) + 1, empty=True)
    score = MEMORY_BLOCK(wrong, {"block": block})
    assert {c.name for c in score.checks if not c.passed} == {"order", "exact_chars", "empty"}
    assert "expected an empty block" in score.why
    assert MEMORY_BLOCK(MemoryBlockExpect(empty=True), {"block": ""}).passed
    # includes are exact: formatting is the point of this target
    assert not MEMORY_BLOCK(MemoryBlockExpect(includes=["- a (noted"]), {"block": block}).passed


def test_forget_match_compares_matched_as_a_set():
    expect = ForgetExpect(action="ambiguous", matched=["You live in Miami", "You moved to Miami"])
    got = {"action": "ambiguous", "matched": ["You moved to Miami", "You live in Miami"]}
    assert FORGET_MATCH(expect, got).passed
    score = FORGET_MATCH(expect, {"action": "confirm_retraction", "matched": ["You live in Miami"]})
    assert not score.passed
    assert "action confirm_retraction, expected ambiguous" in score.why
    assert "missing ['You moved to Miami']" in score.why


@pytest.mark.parametrize(
    ("passed", "n", "lo", "hi"),
    [
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (141, 150, 0.8899, 0.9681),
    ],
)
def test_wilson_interval_known_values(passed, n, lo, hi):
    got = wilson(passed, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_wilson_agrees_with_scipy():
    # binomtest(passed, n).proportion_ci(method="wilson"), recorded from scipy 1.17.1.
    recorded = {
        (1, 3): (0.06149194472039626, 0.7923403991979523),
        (37, 58): (0.509275237048117, 0.7494508717002409),
        (199, 200): (0.972226295602107, 0.999116831284399),
    }
    for (passed, n), ci in recorded.items():
        assert wilson(passed, n) == pytest.approx(ci, abs=1e-9)


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_mcnemar_exact_on_known_tables():
    # b=1 regressions, c=9 fixes: 2 * P(X <= 1), X ~ Bin(10, 0.5) = 2 * 11/1024
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(9, 1) == pytest.approx(22 / 1024)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 3) == pytest.approx(1.0)
    # 0 vs 6: 2 * (1/2)^6
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)


def test_mcnemar_exact_agrees_with_scipy():
    # binomtest(min(b, c), b + c, 0.5).pvalue, recorded from scipy 1.17.1.
    assert mcnemar_exact(2, 7) == pytest.approx(0.1796875, abs=1e-12)
    assert mcnemar_exact(4, 5) == 1.0
    assert mcnemar_exact(10, 25) == pytest.approx(0.016673847800120715, abs=1e-12)


# scipy.stats.wilcoxon(x, y).pvalue with its defaults, recorded from scipy 1.17.1: one case
# for each of its methods (exact, sign enumeration with ties and zeros, normal approximation
# with ties, normal approximation past 50 pairs).
WILCOXON_RECORDED = [
    (
        [12.5, 9.1, 14.2, 8.8, 11.0, 10.4, 13.9, 7.5, 12.2, 9.9],
        [10.0, 9.5, 11.1, 9.0, 10.2, 10.0, 12.0, 8.1, 10.9, 9.2],
        0.041015625,
    ),
    (
        [3, 5, 5, 2, 4, 6, 1, 3, 5, 4, 2, 3],
        [3, 4, 3, 3, 2, 4, 1, 2, 4, 2, 2, 1],
        0.01953125,
    ),
    (
        [float(i % 7) for i in range(30)],
        [float((i * 3) % 5) for i in range(30)],
        0.10445945209743084,
    ),
    (
        [i * 1.01 + (i % 3) * 0.37 for i in range(60)],
        [i * 1.0 + (i % 5) * 0.29 for i in range(60)],
        0.2074750173978691,
    ),
]


@pytest.mark.parametrize(("x", "y", "p"), WILCOXON_RECORDED)
def test_wilcoxon_matches_recorded_scipy_p_values(x, y, p):
    assert wilcoxon(x, y) == pytest.approx(p, abs=1e-6)
    assert wilcoxon(y, x) == pytest.approx(p, abs=1e-6)  # two-sided: order does not matter


def test_wilcoxon_edge_cases():
    assert math.isnan(wilcoxon([1.0, 2.0], [1.0, 2.0]))
    # Every one of 6 differences positive: the most extreme of 2^6 outcomes, twice.
    assert wilcoxon([2, 3, 4, 5, 6, 7], [1, 1, 1, 1, 1, 1]) == pytest.approx(2 / 64)
    with pytest.raises(ValueError):
        wilcoxon([1.0], [1.0, 2.0])
