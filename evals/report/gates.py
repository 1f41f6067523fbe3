"""The verdict of each gate over a whole run: accuracy, critical failures, errors and, for
closure suites, F1 per entity kind."""

from __future__ import annotations

from evals.dataset.models import Gate
from evals.perturb import robustness_failures
from evals.report.document import GateState, Verdict
from evals.report.tables import pct
from evals.runner.summary import DEFAULT_GATE, GroupResult


def _where(group: GroupResult) -> str:
    variant = f" [{group.variant}]" if group.variant != "active" else ""
    return f"{group.suite} on {group.provider}{variant}"


def _verdict(gate: str, gated: int, failures: list[str], total: int) -> Verdict:
    state: GateState = "fail" if failures else ("pass" if gated else "none")
    if failures:
        detail = "; ".join(failures)
    elif gated:
        detail = f"held in {gated} of {total} suite × provider group(s)"
    else:
        detail = "no suite sets this bound"
    return Verdict(gate, state, detail)


def gate_verdicts(groups: list[GroupResult]) -> list[Verdict]:
    """One verdict per kind of gate; a group without a gate still may have no errors."""
    accuracy: list[str] = []
    critical: list[str] = []
    errors: list[str] = []
    f1: list[str] = []
    writing: list[str] = []
    acc_gated = crit_gated = f1_gated = writing_gated = 0
    for g in groups:
        gate = g.gate or DEFAULT_GATE
        if gate.accuracy is not None:
            acc_gated += 1
            if g.accuracy is None:
                accuracy.append(f"{_where(g)}: nothing scored")
            elif g.accuracy < gate.accuracy:
                accuracy.append(f"{_where(g)}: {pct(g.accuracy)} < {pct(gate.accuracy)}")
        if gate.critical_failures is not None:
            crit_gated += 1
            if g.critical_failures > gate.critical_failures:
                critical.append(f"{_where(g)}: {g.critical_failures} > {gate.critical_failures}")
        if gate.f1 and g.metrics is not None:
            f1_gated += 1
            f1 += [f for f in g.gate_failures if " F1 " in f]
        if gate.first_pass_rate is not None:
            writing_gated += 1
            writing += [f for f in g.gate_failures if "first-pass rate" in f]
        bound = gate.error_bound
        too_many = bound is not None and g.errors > bound
        too_often = gate.max_error_rate is not None and g.error_rate > gate.max_error_rate
        if too_many or too_often:
            errors.append(f"{_where(g)}: {g.errors} of {g.n}")
    verdicts = [
        _verdict("accuracy", acc_gated, accuracy, len(groups)),
        _verdict("critical_failures", crit_gated, critical, len(groups)),
        _verdict("errors", len(groups), errors, len(groups)),
    ]
    if f1_gated:
        verdicts.append(_verdict("F1 per entity kind", f1_gated, f1, len(groups)))
    if writing_gated:
        verdicts.append(_verdict("writing first-pass rate", writing_gated, writing, len(groups)))
    robust = [g for g in groups if g.robustness]
    if robust:  # a perturbed run: its bounds, and errors under a perturbation
        gated = sum(_bounds_robustness(g.gate) for g in robust)
        broken = [f for g in robust for f in _robustness_failures(g)]
        verdicts.append(_verdict("robustness", gated, broken, len(groups)))
    return verdicts


def _bounds_robustness(gate: Gate | None) -> bool:
    return gate is not None and (gate.invariance, gate.max_accuracy_drop) != (None, None)


def _robustness_failures(g: GroupResult) -> list[str]:
    gate = g.gate or DEFAULT_GATE
    return robustness_failures(
        _where(g), g.robustness or [], gate.invariance, gate.max_accuracy_drop, gate.error_bound
    )
