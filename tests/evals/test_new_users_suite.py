"""evals/heldout/new_users.yaml: 50 scored turns in three styles, each with a gold reading that
the core replays right, written apart from the suites; and scripts/turns_right.py, which counts
a run's turns right."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from evals.dataset import load_suite
from evals.dataset.conversation import ConversationCase, MessageTurn
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.gold import GOLD
from pipeline.config import PROJECT_ROOT

SUITE = PROJECT_ROOT / "evals" / "heldout" / "new_users.yaml"
STYLES = {"tx": 17, "pq": 17, "fm": 16}  # texting, polite question form, formal letter


def _turns_right() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "turns_right", PROJECT_ROOT / "scripts" / "turns_right.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _normalised(text: str) -> str:
    """Case, spacing and ASCII punctuation aside; an emoji is kept (it is the whole message)."""
    return " ".join(re.sub(r"[!-/:-@\[-`{-~]", " ", text.lower()).split())


def _operator_texts(node: Any) -> set[str]:
    """Every message and operator turn anywhere in a suite file, normalised."""
    if isinstance(node, dict):
        found = {_normalised(v) for k, v in node.items() if k in ("message", "operator")
                 and isinstance(v, str)}  # fmt: skip
        return found.union(*(_operator_texts(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_operator_texts(v) for v in node))
    return set()


def test_fifty_scored_turns_in_three_styles_each_with_a_gold_reading() -> None:
    suite = load_suite(SUITE)
    assert suite.target == "conversation" and suite.gate is not None
    styles: Counter[str] = Counter()
    messages = []
    for case in suite.cases:
        assert isinstance(case, ConversationCase)
        for turn in case.turns:
            assert isinstance(turn, MessageTurn) and turn.expect is not None, case.id
            assert turn.reading, f"{case.id}: {turn.message!r} has no gold reading"
            styles[case.id.split("-")[0]] += 1
            messages.append(_normalised(turn.message))
    assert dict(styles) == STYLES
    assert len(set(messages)) == len(messages) == 50


def test_no_message_is_one_of_the_project_suites() -> None:
    ours = _operator_texts(yaml.safe_load(SUITE.read_text(encoding="utf-8")))
    theirs: set[str] = set()
    for path in sorted((PROJECT_ROOT / "evals" / "suites").glob("*.yaml")):
        theirs |= _operator_texts(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert not ours & theirs


def test_gold_readings_replay_every_turn_right() -> None:
    config = RunConfig([load_suite(SUITE)], [GOLD], concurrency=1, reading=GOLD)
    out = run_eval(EvalOptions(config, progress=False))
    failed = {r["case_id"]: r["why"] for r in out.rows if r["status"] != "pass"}
    assert len(out.rows) == 25 and not failed, failed
    (entry,) = _turns_right().tally(out.run.path).values()
    assert (entry.right, entry.scored) == (50, 50)


def _row(case_id: str, reached: list[int], checks: list[tuple[int, bool]]) -> dict[str, Any]:
    return {
        "suite": "talks", "provider": "p", "case_id": case_id,
        "got": {"turns": [{"turn": t} for t in reached]},
        "checks": [{"name": "action", "turn": t, "pass": ok, "why": "" if ok else "wrong action"}
                   for t, ok in checks],
    }  # fmt: skip


def test_turns_right_counts_failed_and_unreached_turns_as_wrong(make_suite: Any,
                                                                tmp_path: Path) -> None:  # fmt: skip
    turn = {"message": "hi", "expect": {"action": "none"}}
    path = make_suite({"name": "talks", "target": "conversation", "cases": [
        {"id": "a", "turns": [turn, {**turn, "message": "ok"}, {"message": "unscored"}]},
        {"id": "b", "turns": [{**turn, "message": "yo"}, {**turn, "message": "stopped"}]},
    ]})  # fmt: skip
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"config": {"suites": [str(path)]}}))
    rows = [_row("a", [1, 2, 3], [(1, False), (2, True)]), _row("b", [1], [(1, True)])]
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (entry,) = _turns_right().tally(run).values()
    assert (entry.right, entry.scored) == (2, 4)
    assert entry.failed == [
        "a turn 1 'hi': action: wrong action",
        "b turn 2 'stopped': not reached (the case stopped before it)",
    ]
