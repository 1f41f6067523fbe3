"""Robustness figures of one suite x provider x prompt: accuracy under each perturbation and
the invariance rate, each with a 95% Wilson interval, and the gate's verdict on them.

Rows of a perturbation exist only for the cases it changed; an unchanged case is its own
unperturbed self, so under that perturbation it keeps its unperturbed verdict. Accuracy under
a perturbation therefore covers the whole suite and compares directly with the unperturbed
accuracy; invariance covers the changed cases whose verdict is known both ways (an error on
either side is counted apart, as everywhere in a run).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from evals.perturb.transforms import TRANSFORMS
from evals.stats import wilson

Row = Mapping[str, Any]
R = TypeVar("R", bound=Mapping[str, Any])
_SCORED = ("pass", "fail")


def perturbation_of(row: Row) -> str:
    """The perturbation that produced a row ("" for the unperturbed run)."""
    return str(row.get("perturbation") or "")


def split_rows(rows: Iterable[R]) -> tuple[list[R], list[R]]:
    """(unperturbed rows, perturbed rows)."""
    base: list[R] = []
    perturbed: list[R] = []
    for row in rows:
        (perturbed if perturbation_of(row) else base).append(row)
    return base, perturbed


def _rounded(pair: tuple[float, float]) -> list[float]:
    return [round(pair[0], 4), round(pair[1], 4)]


def perturbation_figures(name: str, base: Sequence[Row], rows: Sequence[Row]) -> dict[str, Any]:
    """One perturbation's figures against the unperturbed rows of the same group."""
    before = {(r["case_id"], int(r["epoch"])): r["status"] for r in base}
    after = {(r["case_id"], int(r["epoch"])): r["status"] for r in rows}
    statuses = {key: after.get(key, status) for key, status in before.items()}
    statuses |= {key: s for key, s in after.items() if key not in before}
    scored = [s for s in statuses.values() if s in _SCORED]
    passed = sum(s == "pass" for s in scored)
    paired = [(before[k], s) for k, s in after.items() if before.get(k) in _SCORED]
    paired = [(b, a) for b, a in paired if a in _SCORED]
    invariant = sum(b == a for b, a in paired)
    base_scored = [s for s in before.values() if s in _SCORED]
    base_acc = sum(s == "pass" for s in base_scored) / len(base_scored) if base_scored else None
    acc = passed / len(scored) if scored else None
    return {
        "name": name,
        "n": len(statuses),
        "changed": len(after),
        "passed": passed,
        "errors": sum(s == "error" for s in statuses.values()),
        "accuracy": None if acc is None else round(acc, 4),
        "ci95": _rounded(wilson(passed, len(scored))),
        "accuracy_change": None if acc is None or base_acc is None else round(acc - base_acc, 4),
        "paired": len(paired),
        "invariant": invariant,
        "invariance": round(invariant / len(paired), 4) if paired else None,
        "invariance_ci95": _rounded(wilson(invariant, len(paired))),
        "broke": sum(b == "pass" and a == "fail" for b, a in paired),
        "fixed": sum(b == "fail" and a == "pass" for b, a in paired),
    }


def robustness(base: Sequence[Row], perturbed: Sequence[Row]) -> list[dict[str, Any]]:
    """Each perturbation's figures: single transforms in their table's order, then chains and
    presets by name (rows finish in any order)."""
    by_name: dict[str, list[Row]] = defaultdict(list)
    for row in perturbed:
        by_name[perturbation_of(row)].append(row)
    order = list(TRANSFORMS)

    def place(name: str) -> tuple[int, str]:
        return (order.index(name) if name in order else len(order), name)

    return [perturbation_figures(name, base, by_name[name]) for name in sorted(by_name, key=place)]


def robustness_failures(
    where: str,
    figures: list[dict[str, Any]],
    invariance: float | None,
    max_accuracy_drop: float | None,
    error_bound: int | None,
) -> list[str]:
    """Why the group's perturbations fail its gate (empty when they pass or none ran)."""
    failures: list[str] = []
    for f in figures:
        at = f"{where} [{f['name']}]"
        if invariance is not None:
            if f["invariance"] is None:
                failures.append(f"{at}: no changed case was scored both ways")
            elif f["invariance"] < invariance:
                failures.append(f"{at}: invariance {f['invariance']:.3f} < gate {invariance:.3f}")
        drop = f["accuracy_change"]
        if max_accuracy_drop is not None and drop is not None and -drop > max_accuracy_drop:
            failures.append(
                f"{at}: accuracy fell {-drop:.3f} under the perturbation > bound "
                f"{max_accuracy_drop:.3f}"
            )
        if error_bound is not None and f["errors"] > error_bound:
            failures.append(f"{at}: {f['errors']} errors > bound {error_bound}")
    return failures
