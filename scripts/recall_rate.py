"""How often on-demand recall fired in an eval run (docs/memory.md, "On-demand recall").

Conversation suites run every turn through converse(), whose turn records say whether recall
fired, what it found (ok | in_context | no_match) and how long it took. Classification
suites keep no confidence in their rows, so each such case of the run is classified again by
the local classifier: it would have fired when its confidence is below LOW_CONFIDENCE, the one
rule converse() applies (with an embedder and the setting on).

    PYTHONPATH=. python scripts/recall_rate.py reports/runs/RUN_ID
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

from evals.dataset.load import load_suite
from evals.runner.targets import _history
from pipeline.intents.taxonomy import LOW_CONFIDENCE
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.registry import make_providers


def _confidences(run: Path) -> dict[tuple[str, str], float | None]:
    """(suite, case id) -> the local classifier's confidence, for the run's classify cases."""
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    classifier = make_providers("local").classifier
    assert classifier is not None
    out: dict[tuple[str, str], float | None] = {}
    for path in meta["config"]["suites"]:
        suite = load_suite(Path(path))
        if suite.target != "classify":
            continue
        for case in suite.cases:
            request = ClassifyRequest(
                message=case.message, history=_history(case), project_name=case.project
            )
            out[(suite.name, case.id)] = classifier.classify(request).confidence
    return out


def main(run: Path) -> None:
    """Print, per suite, the turns, how many fired and what they found."""
    confidences = _confidences(run)
    turns: Counter[str] = Counter()
    fired: Counter[str] = Counter()
    found: dict[str, Counter[str]] = defaultdict(Counter)
    latencies: list[float] = []
    for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        got, suite = row.get("got") or {}, row["suite"]
        if row["target"] == "classify":
            confidence = confidences.get((suite, row["case_id"]))
            turns[suite] += 1
            fired[suite] += confidence is not None and confidence < LOW_CONFIDENCE
        elif row["target"] == "conversation":
            for turn in got.get("turns", []):
                if "message" not in turn:
                    continue  # an erase or other non-message step
                turns[suite] += 1
                if turn.get("recall"):
                    fired[suite] += 1
                    found[suite][turn["recall"]["status"]] += 1
                    latencies.append(float(turn["recall"]["ms"]))
    print(f"{'suite':28} {'turns':>6} {'fired':>6} {'share':>7}  statuses")
    for suite in sorted(turns):
        share = fired[suite] / turns[suite]
        print(f"{suite:28} {turns[suite]:6} {fired[suite]:6} {share:7.1%}  {dict(found[suite])}")
    total, hits = sum(turns.values()), sum(fired.values())
    print(f"{'all':28} {total:6} {hits:6} {hits / total:7.1%}")
    if latencies:
        latencies.sort()
        p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
        print(f"recall latency: median {statistics.median(latencies):.2f} ms, p95 {p95:.2f} ms")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
