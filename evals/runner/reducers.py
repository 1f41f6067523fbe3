"""How a case's epochs reduce to one score: the suite's `epochs_reducer:` or `--reducer`.

With `--epochs K` each case is answered K times. `mean` scores the case by the share of its
scored epochs that passed (a group's accuracy is then passed rows / scored rows, the figure
every run reported before reducers could be chosen); `majority` passes it when more than half
passed; `pass@k` when any passed (can the model get it at all); `all-k` only when every one
passed (does it get it every time). Errored epochs are not verdicts and are left out; a case
with no scored epoch is not scored. With one epoch every reducer gives the same figure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

Reducer = Literal["mean", "majority", "pass@k", "all-k"]
REDUCERS: tuple[str, ...] = get_args(Reducer)
DEFAULT: Reducer = "mean"


def check_reducer(name: str) -> Reducer:
    """`name` as a reducer, or ValueError naming the valid ones."""
    if name not in REDUCERS:
        raise ValueError(f"{name!r} is not an epoch reducer; valid: {', '.join(REDUCERS)}")
    return name  # type: ignore[return-value]


def case_score(passes: int, scored: int, reducer: str) -> float:
    """One case's score from its scored epochs (scored ≥ 1)."""
    if reducer == "majority":
        return 1.0 if passes * 2 > scored else 0.0
    if reducer == "pass@k":
        return 1.0 if passes else 0.0
    if reducer == "all-k":
        return 1.0 if passes == scored else 0.0
    return passes / scored


def reduced(rows: Iterable[Mapping[str, Any]], reducer: str) -> tuple[float, int] | None:
    """(the group's accuracy under `reducer`, the number of cases scored), None when none was.

    `mean` is pooled over rows (passed / scored), as a group's accuracy always was; the others
    average the per-case scores."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if row["status"] == "error":
            continue
        tally = counts[str(row["case_id"])]
        tally[0] += row["status"] == "pass"
        tally[1] += 1
    if not counts:
        return None
    if reducer == DEFAULT:
        passes = sum(p for p, _ in counts.values())
        return passes / sum(s for _, s in counts.values()), len(counts)
    scores = [case_score(p, s, reducer) for p, s in counts.values()]
    return sum(scores) / len(scores), len(scores)


def label(reducer: str, epochs: int) -> str:
    """'pass@3', 'all-3', 'majority of 3', 'mean of 3' ('' for one epoch)."""
    if epochs < 2:
        return ""
    k = str(epochs)
    return {"pass@k": f"pass@{k}", "all-k": f"all-{k}", "majority": f"majority of {k}"}.get(
        reducer, f"mean of {k}"
    )
