"""A tag-stratified sample of a suite, the same for the same seed (`converse eval --sample N`).

Each case's stratum is its first tag (the suites list the case's kind first: a domain, a
continuation kind); untagged cases form a stratum of their own. Every stratum gets cases in
proportion to its size (largest remainders decide the rounding), and at least one when the
sample has room for every stratum, so a small sample still sees every kind of case.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from evals.dataset.cases import Case
    from evals.dataset.load import Suite

UNTAGGED = "(untagged)"


@dataclass(frozen=True)
class SampleInfo:
    """Which sample a suite is: n of its cases, drawn with this seed from these strata."""

    n: int
    of: int
    seed: int
    strata: int

    def label(self) -> str:
        """'sample 40 of 218, seed 1'."""
        return f"sample {self.n} of {self.of}, seed {self.seed}"

    def as_json(self) -> dict[str, int]:
        """For rows, run.json and --json."""
        return {"n": self.n, "of": self.of, "seed": self.seed, "strata": self.strata}


def stratum(case: Case) -> str:
    """The stratum a case is drawn from: its first tag."""
    return case.tags[0] if case.tags else UNTAGGED


def allocate(sizes: dict[str, int], n: int) -> dict[str, int]:
    """How many cases each stratum gives to a sample of n (proportional, largest remainder,
    at least one each when n allows)."""
    total = sum(sizes.values())
    names = sorted(sizes)
    floor_one = n >= len(names)
    share = {name: n * sizes[name] / total for name in names}
    taken = {name: min(sizes[name], int(share[name])) for name in names}
    if floor_one:
        taken = {name: max(1, taken[name]) for name in names}
    # largest remainders first, then the larger stratum, then the name: deterministic
    order = sorted(names, key=lambda m: (-(share[m] - int(share[m])), -sizes[m], m))
    while sum(taken.values()) < n:
        grew = False
        for name in order:
            if sum(taken.values()) >= n:
                break
            if taken[name] < sizes[name]:
                taken[name] += 1
                grew = True
        if not grew:
            break
    while sum(taken.values()) > n:  # the one-each floor overshot: trim the largest
        name = max(names, key=lambda m: (taken[m], m))
        taken[name] -= 1
    return taken


def sample_suite(suite: Suite, n: int, seed: int = 0) -> Suite:
    """The suite with n of its cases drawn stratified by tag (file order kept), marked as a
    sample; the suite itself when it has n cases or fewer."""
    if n < 1:
        raise ConverseError(f"--sample {n} is too small", "sample at least one case per suite")
    if n >= len(suite.cases):
        return suite
    groups: dict[str, list[Case]] = defaultdict(list)
    for case in suite.cases:
        groups[stratum(case)].append(case)
    counts = allocate({name: len(cases) for name, cases in groups.items()}, n)
    chosen: set[str] = set()
    for name, cases in sorted(groups.items()):
        # a generator per stratum, seeded by text: adding a stratum leaves the others' draws
        rng = random.Random(f"{seed}:{suite.name}:{name}")
        chosen.update(case.id for case in rng.sample(cases, counts[name]))
    cases_kept = tuple(case for case in suite.cases if case.id in chosen)
    info = SampleInfo(len(cases_kept), len(suite.cases), seed, len(groups))
    return replace(suite, cases=cases_kept, sample=info)
