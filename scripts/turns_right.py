"""Turns right in a conversation run: the "N of 50 turns" figure of evals/heldout/new_users.yaml.

`converse eval` scores a conversation case as one verdict (every turn right). A person trying
the companion meets it turn by turn, so this counts, per suite and provider of a run, the
message turns with expectations whose checks all held. A turn the run never reached (its case
stopped on an error) counts as wrong; a turn after an earlier failure of its case counts when
its own checks hold. Failed turns are listed with the message and what failed.

    PYTHONPATH=. python scripts/turns_right.py reports/runs/RUN_ID [--list]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.dataset.conversation import ConversationCase, MessageTurn
from evals.dataset.load import load_suite


@dataclass
class Tally:
    """Turns scored and turns right for one suite on one provider, and the failed ones."""

    scored: int = 0
    right: int = 0
    failed: list[str] = field(default_factory=list)


def scored_turns(suite_path: Path) -> dict[str, list[tuple[int, str]]]:
    """Case id -> (turn number, message) of each message turn that carries expectations."""
    suite = load_suite(suite_path)
    out: dict[str, list[tuple[int, str]]] = {}
    for case in suite.cases:
        if not isinstance(case, ConversationCase):
            continue
        out[case.id] = [
            (number, turn.message)
            for number, turn in enumerate(case.turns, start=1)
            if isinstance(turn, MessageTurn) and turn.expect is not None
        ]
    return out


def _verdicts(row: dict[str, Any]) -> tuple[dict[int, bool], dict[int, str]]:
    """Per turn of one row: whether every check held, and the first failure's reason."""
    verdicts: dict[int, bool] = {}
    why: dict[int, str] = {}
    for check in row.get("checks") or []:
        turn = check.get("turn")
        if not isinstance(turn, int):
            continue
        held = bool(check.get("pass"))
        verdicts[turn] = verdicts.get(turn, True) and held
        if not held and turn not in why:
            why[turn] = f"{check.get('name')}: {check.get('why') or check.get('got')}"
    reached = {t.get("turn") for t in (row.get("got") or {}).get("turns") or []}
    return {t: ok for t, ok in verdicts.items() if t in reached}, why


def tally(run: Path) -> dict[tuple[str, str], Tally]:
    """(suite, provider) -> turns scored and right, for every conversation suite of the run."""
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    expected: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for path in meta["config"]["suites"]:
        suite = load_suite(Path(path))
        if suite.target == "conversation":
            expected[suite.name] = scored_turns(Path(path))
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    with (run / "results.jsonl").open(encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            cases = expected.get(row["suite"])
            if cases is None or row["case_id"] not in cases:
                continue
            verdicts, why = _verdicts(row)
            entry = tallies[(row["suite"], row["provider"])]
            for number, message in cases[row["case_id"]]:
                entry.scored += 1
                if verdicts.get(number, False):
                    entry.right += 1
                else:
                    reason = why.get(number, "not reached (the case stopped before it)")
                    entry.failed.append(f"{row['case_id']} turn {number} {message!r}: {reason}")
    return dict(tallies)


def main(argv: list[str]) -> int:
    """Print each suite's turns right (and with --list the failed turns); 2 on bad usage."""
    if not argv or not Path(argv[0], "results.jsonl").is_file():
        print(
            "usage: scripts/turns_right.py reports/runs/RUN_ID [--list]"
            " (a run folder with results.jsonl)"
        )
        return 2
    for (suite, provider), entry in sorted(tally(Path(argv[0])).items()):
        print(f"{suite} on {provider}: {entry.right} of {entry.scored} turns right")
        if "--list" in argv[1:]:
            for failure in entry.failed:
                print(f"  - {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
