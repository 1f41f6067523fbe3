"""The perturbed work of a run: each planned case again under each perturbation that changes
it (docs/evals.md, "Robustness"), scored against the case's own expectations."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from evals.dataset.cases import Case
from evals.dataset.load import Suite
from evals.perturb import PERTURBED_TARGETS, Perturbation, parse_perturbations, perturb_case
from pipeline.providers import REGISTRY

if TYPE_CHECKING:
    from evals.runner.engine import RunConfig, WorkItem


def suite_perturbations(suite: Suite, chosen: tuple[str, ...] | None) -> tuple[Perturbation, ...]:
    """The run's `--perturb` names when given (even `none`), else the suite's own."""
    if suite.target not in PERTURBED_TARGETS:
        return ()
    return parse_perturbations(suite.perturb if chosen is None else chosen)


def _replayed(provider: str, config: RunConfig) -> bool:
    """Whether the provider answers from a cassette in this run: a cassette holds the messages
    as written, so a rewritten one could only be a cassette miss (an error row)."""
    spec = REGISTRY.get(provider)
    replays = config.replay or config.cassette is not None
    return replays and spec is not None and spec.uses_cassettes


def perturbed_items(items: list[WorkItem], config: RunConfig) -> list[WorkItem]:
    """A copy of every unperturbed item for each perturbation that changes its case (not on a
    provider replaying cassettes)."""
    rewritten: dict[tuple[str, str, str], Case | None] = {}
    out: list[WorkItem] = []
    by_suite = {s.name: suite_perturbations(s, config.perturb) for s in config.suites}
    for item in items:
        if _replayed(item.provider, config):
            continue
        for perturbation in by_suite.get(item.suite.name, ()):
            key = (item.suite.name, item.case.id, perturbation.name)
            if key not in rewritten:
                rewritten[key] = perturb_case(item.case, perturbation, config.perturb_seed)
            case = rewritten[key]
            if case is not None:
                out.append(replace(item, case=case, perturbation=perturbation.name))
    return out
