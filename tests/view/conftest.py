"""Run folders for the viewer's tests: synthetic classify runs and a conversation run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from evals.bench.view import synthetic_run
from evals.view import create_app

BASE = "20261101-090000-aaaa"
RUN = "20261102-090000-bbbb"
CONVO = "20261103-090000-cccc"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private reports folder (CONVERSE_REPORTS_DIR), so nothing touches reports/."""
    reports = tmp_path / "reports"
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(reports))
    monkeypatch.setenv("CONVERSE_REVIEWER", "rev-a")
    return reports


@pytest.fixture
def runs(root: Path) -> Path:
    """Two 40-row classify runs (classifier v1, then v2) with 4 failures each, on other cases."""
    synthetic_run(root, BASE, 40, classifier="v1")
    synthetic_run(root, RUN, 40, classifier="v2", offset=3)
    return root


# run.json's config as the runner writes it (evals/runner/meta.py checks its types)
CONFIG = {"suites": ["convo"], "providers": ["local"], "variants": [{}], "epochs": 1,
          "concurrency": 1, "use_cache": False}  # fmt: skip


def conversation_row(run_id: str, case_id: str = "refine-allergy") -> dict[str, Any]:
    """A failed conversation row as the runner writes one: turns, memory, checks per turn."""
    fact = {"number": 1, "state": "held", "content": "You're allergic to shellfish"}
    return {
        "run_id": run_id, "suite": "convo", "target": "conversation", "case_id": case_id,
        "tags": ["refine", "critical"], "input": {"turns": 2}, "provider": "local",
        "provider_label": "local (fixture rows)", "model": "m", "variant": "active",
        "prompt": {"prompts": "active set 1234abcd"},
        "prompts": [{"family": "persona", "version": "v1", "sha256": "ab" * 32}],
        "epoch": 0, "expected": [{"turn": 2}], "status": "fail", "pass": False, "error": None,
        "got": {"start": {"memory": []}, "turns": [
            {"turn": 1, "message": "I'm allergic to shellfish", "intent": "remember_about_me",
             "action": "held", "params": {}, "reply": "I'll remember that.", "memory": [fact]},
            {"turn": 2, "message": "no, just shrimp", "intent": "general_conversation",
             "action": None, "params": {}, "reply": "Okay.", "memory": [fact]},
        ]},
        "why": "turn 2: memory has no held fact with [shrimp]",
        "checks": [{"name": "memory", "turn": 2, "pass": False,
                    "why": "turn 2: memory has no held fact with [shrimp]"}],
    }  # fmt: skip


@pytest.fixture
def convo_run(root: Path) -> Path:
    """A run of one failed conversation case."""
    folder = root / "runs" / CONVO
    folder.mkdir(parents=True)
    meta = {"run_id": CONVO, "created_at": "2026-11-03T09:00:00+00:00", "config": CONFIG,
            "git": {"commit": "f" * 40, "dirty": True},
            "suite_info": [{"name": "convo", "target": "conversation", "cases": 1}]}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "results.jsonl").write_text(json.dumps(conversation_row(CONVO)) + "\n")
    return folder


@pytest.fixture
def client(root: Path) -> TestClient:
    return TestClient(create_app(root))
