"""From rows to per-group results and gate verdicts (the `--json` result object)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from evals.dataset.models import Gate, Target
from evals.perturb import robustness, robustness_failures, split_rows
from evals.runner.closure_metrics import closure_metrics, f1_gate_failures
from evals.runner.reading_metrics import failures_by, reading_accuracy
from evals.runner.writing_metrics import writing_gate_failures, writing_metrics
from evals.stats import wilson


@dataclass(frozen=True)
class GroupResult:
    """One suite x provider x prompt variant, pooled over epochs."""

    suite: str
    target: str
    provider: str
    label: str
    model: str
    variant: str
    prompt: dict[str, str]
    n: int
    passed: int
    errors: int
    critical_failures: int = 0
    gate: Gate | None = None
    gate_failures: tuple[str, ...] = field(default_factory=tuple)
    # closure suites: pooled entity, routing, resolution and narrative figures; writing
    # suites: the first-pass rate of new items
    metrics: dict[str, Any] | None = None
    # perturbed runs: each perturbation's accuracy and invariance (evals/perturb/robustness.py)
    robustness: list[dict[str, Any]] | None = None
    # `--sample`: {n, of, seed, strata} when the suite's cases were a sample
    sample: dict[str, int] | None = None
    # with epochs: the cases whose scored epochs disagree (some pass, some fail)
    flaky: tuple[str, ...] | None = None
    # rows with gold readings: accuracy per reading field (evals/runner/reading_metrics.py)
    reading: dict[str, dict[str, Any]] | None = None
    # failed rows by what failed: the reading, the decision, or unknown
    failed_by: dict[str, int] | None = None
    # "gold" when the group replayed the suites' gold readings (`--reading gold`)
    reading_mode: str | None = None

    def sample_label(self) -> str:
        """'sample 40 of 218, seed 1', or '' when the group ran the whole suite."""
        if not self.sample:
            return ""
        s = self.sample
        return f"sample {s.get('n')} of {s.get('of')}, seed {s.get('seed')}"

    @property
    def scored(self) -> int:
        """Rows with a verdict (errors are not wrong answers, so they are not scored)."""
        return self.n - self.errors

    @property
    def accuracy(self) -> float | None:
        """passed / scored, or None when nothing was scored."""
        return self.passed / self.scored if self.scored else None

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy."""
        return wilson(self.passed, self.scored)

    @property
    def error_rate(self) -> float:
        """errors / n."""
        return self.errors / self.n if self.n else 0.0

    @property
    def gate_passed(self) -> bool:
        """No gate, or every bound held."""
        return not self.gate_failures

    def as_json(self) -> dict[str, Any]:
        """The result entry of DESIGN.md's machine-readable output (plus label and gate)."""
        lo, hi = self.ci95
        acc = self.accuracy
        return {
            "suite": self.suite,
            "target": self.target,
            "provider": self.provider,
            "provider_label": self.label,
            "model": self.model,
            "prompt": self.prompt,
            "n": self.n,
            "passed": self.passed,
            "errors": self.errors,
            "critical_failures": self.critical_failures,
            "accuracy": round(acc, 4) if acc is not None else None,
            "ci95": [round(lo, 4), round(hi, 4)],
            **({} if self.metrics is None else {"metrics": self.metrics}),
            **({} if self.robustness is None else {"robustness": self.robustness}),
            **({} if self.sample is None else {"sample": self.sample}),
            **({} if self.flaky is None else {"flaky_cases": list(self.flaky)}),
            **({} if self.reading_mode is None else {"reading_mode": self.reading_mode}),
            **({} if self.reading is None else {"reading": self.reading}),
            **({} if self.failed_by is None else {"failed_by": self.failed_by}),
            "gate": None
            if self.gate is None
            else {
                **self.gate.model_dump(exclude_none=True),
                "passed": self.gate_passed,
                "failures": list(self.gate_failures),
            },
        }


Pool = Callable[[Iterable[Mapping[str, Any]]], dict[str, Any]]
GateBound = Callable[[str, Mapping[str, Any], Gate | None], list[str]]
# Targets whose figures are pooled over the cases, with the gate bounds on them (closure's F1
# per entity kind, writing's first-pass rate); the contract test checks these are the targets
# whose spec declares pooled metrics.
POOLED: dict[Target, tuple[Pool, GateBound]] = {
    "closure": (closure_metrics, f1_gate_failures),
    "writing": (writing_metrics, writing_gate_failures),
}

# What a suite without a gate must still meet: no errors (Gate.error_bound).
DEFAULT_GATE = Gate()


def _where(group: GroupResult) -> str:
    return f"{group.suite} on {group.provider}" + (
        f" [{group.variant}]" if group.variant != "active" else ""
    )


def gate_failures(group: GroupResult, gate: Gate | None) -> tuple[str, ...]:
    """Why a group fails its suite's gate, or the default error gate (empty when it passes)."""
    gate = gate or DEFAULT_GATE
    where = _where(group)
    failures: list[str] = []
    acc = group.accuracy
    if gate.accuracy is not None:
        if acc is None:
            failures.append(f"{where}: no case was scored (all {group.n} errored)")
        elif acc < gate.accuracy:
            failures.append(f"{where}: accuracy {acc:.3f} < gate {gate.accuracy:.3f}")
    if gate.critical_failures is not None and group.critical_failures > gate.critical_failures:
        failures.append(
            f"{where}: critical_failures {group.critical_failures} > bound {gate.critical_failures}"
        )
    if gate.max_error_rate is not None and group.error_rate > gate.max_error_rate:
        failures.append(
            f"{where}: errors {group.errors}/{group.n} = {group.error_rate:.1%} "
            f"> bound {gate.max_error_rate:.1%}"
        )
    bound = gate.error_bound
    if bound is not None and group.errors > bound:
        failures.append(f"{where}: {group.errors} errors > bound {bound}")
    return tuple(failures)


def is_critical_failure(row: Mapping[str, Any]) -> bool:
    """A failed (not errored) row of a case tagged `critical`."""
    return row["status"] == "fail" and "critical" in (row.get("tags") or [])


def flaky_cases(rows: list[dict[str, Any]]) -> tuple[str, ...] | None:
    """Case ids whose scored epochs disagree; None when no case ran in two epochs."""
    verdicts: dict[str, set[str]] = defaultdict(set)
    epochs: dict[str, int] = defaultdict(int)
    for row in rows:
        epochs[row["case_id"]] += 1
        if row["status"] != "error":
            verdicts[row["case_id"]].add(row["status"])
    if max(epochs.values(), default=0) < 2:
        return None
    return tuple(sorted(case for case, seen in verdicts.items() if len(seen) > 1))


def summarize(
    rows: Iterable[dict[str, Any]], gates: Mapping[str, Gate | None] | None = None
) -> list[GroupResult]:
    """Group rows by suite, provider and prompt variant; apply each suite's gate.

    A group's figures are its unperturbed rows'; perturbed rows give its `robustness`.
    """
    grouped: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    perturbed: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    base_rows, perturbed_rows = split_rows(rows)
    for row in base_rows:
        grouped[(row["suite"], row["provider"], row["variant"])].append(row)
    for row in perturbed_rows:
        perturbed[(row["suite"], row["provider"], row["variant"])].append(row)
    results: list[GroupResult] = []
    for (suite, provider, variant), members in grouped.items():
        models = Counter(r.get("model") or "" for r in members if r.get("model"))
        prompts = Counter(json.dumps(r.get("prompt") or {}, sort_keys=True) for r in members)
        group = GroupResult(
            suite=suite,
            target=members[0]["target"],
            provider=provider,
            label=members[0].get("provider_label") or provider,
            model=models.most_common(1)[0][0] if models else "",
            variant=variant,
            prompt=json.loads(prompts.most_common(1)[0][0]),
            n=len(members),
            passed=sum(1 for r in members if r["status"] == "pass"),
            errors=sum(1 for r in members if r["status"] == "error"),
            critical_failures=sum(1 for r in members if is_critical_failure(r)),
            sample=members[0].get("sample") or None,
            flaky=flaky_cases(members),
            reading=reading_accuracy(members),
            failed_by=failures_by(members),
            reading_mode=members[0].get("reading") or None,
        )
        gate = (gates or {}).get(suite)
        failures = gate_failures(group, gate)
        metrics = None
        pooled = POOLED.get(group.target)  # type: ignore[call-overload]
        if pooled is not None:
            pool, bound = pooled
            metrics = pool(members)
            failures += tuple(bound(_where(group), metrics, gate))
        figures = None
        if perturbed.get((suite, provider, variant)):
            figures = robustness(members, perturbed[(suite, provider, variant)])
            bounds = gate or DEFAULT_GATE
            failures += tuple(
                robustness_failures(
                    _where(group),
                    figures,
                    bounds.invariance,
                    bounds.max_accuracy_drop,
                    bounds.error_bound,
                )
            )
        results.append(
            GroupResult(
                **{
                    **group.__dict__,
                    "gate": gate,
                    "gate_failures": failures,
                    "metrics": metrics,
                    "robustness": figures,
                }
            )
        )
    return results


def result_object(run_id: str, report: str | None, groups: list[GroupResult]) -> dict[str, Any]:
    """The object `converse eval --json` prints (DESIGN.md, "Machine-readable output")."""
    failures = [f for g in groups for f in g.gate_failures]
    return {
        "run_id": run_id,
        "report": report,
        "gates_passed": not failures,
        "gate_failures": failures,
        "results": [g.as_json() for g in groups],
    }
