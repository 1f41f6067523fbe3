"""A compaction or closure row keeps the conversation it summarised, and the case and review
pages show it, so a reviewer can read what the summary was made from."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.testclient import TestClient

from evals.dataset import load_suite
from evals.runner.rows import case_input
from evals.view import create_app
from tests.view.conftest import CONFIG

SUITES = Path(__file__).parents[2] / "evals" / "suites"


def test_a_compaction_case_keeps_every_turn_and_where_compaction_ran():
    case = load_suite(SUITES / "compaction.yaml").cases[0]
    brief = case_input(case)
    said = [t for t in case.turns if t.compact is None]
    assert brief["turns"] == len(said) == len([c for c in brief["conversation"]
                                                if c[0] != "compact"])  # fmt: skip
    first = case.turns[0]
    assert brief["conversation"][0] == ["operator", first.operator] or (
        brief["conversation"][0] == ["companion", first.companion]
    )


def test_a_closure_case_keeps_its_turns_and_open_state():
    suite = load_suite(SUITES / "conversation_closure.yaml")
    case = next(c for c in suite.cases if c.open_state)
    brief = case_input(case)
    assert len(brief["conversation"]) == len(case.turns)
    assert brief["open_state"][0].startswith(f"{case.open_state[0].kind}: ")


def test_the_case_page_shows_the_conversation_that_was_compacted(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path))
    run_id = "20261104-090000-dddd"
    folder = tmp_path / "runs" / run_id
    folder.mkdir(parents=True)
    meta = {"run_id": run_id, "created_at": "2026-11-04T09:00:00+00:00", "config": CONFIG,
            "suite_info": [{"name": "compaction", "target": "compaction", "cases": 1}]}  # fmt: skip
    row = {
        "run_id": run_id, "suite": "compaction", "target": "compaction", "case_id": "maud",
        "tags": [], "provider": "local", "provider_label": "local", "model": "", "epoch": 0,
        "variant": "active", "prompt": {}, "prompts": [], "status": "fail", "pass": False,
        "error": None, "expected": {"keeps": ["Leeds"]}, "got": {"summary": "Sam's sister."},
        "why": "summary lacks [Leeds]", "checks": [],
        "input": {"turns": 2, "conversation": [
            ["operator", "My sister Maud lands in Leeds on Sunday"],
            ["companion", "Noted: Maud, Leeds, Sunday."],
            ["compact", "(compaction runs here)"]]},
    }  # fmt: skip
    (folder / "run.json").write_text(json.dumps(meta))
    (folder / "results.jsonl").write_text(json.dumps(row) + "\n")
    client = TestClient(create_app(tmp_path))
    params = {"suite": "compaction", "case": "maud", "provider": "local"}
    for page in (client.get(f"/runs/{run_id}/case", params=params),
                 client.get(f"/runs/{run_id}/review")):  # fmt: skip
        assert page.status_code == 200
        shown = page.text[page.text.index('id="conversation"') :]
        assert "The conversation compacted (3 turns)" in shown
        assert "My sister Maud lands in Leeds on Sunday" in shown
        assert "(compaction runs here)" in shown
