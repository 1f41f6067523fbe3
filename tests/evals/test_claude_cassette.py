"""`converse eval --provider claude --cassette PATH` replays a synthetic cassette: no key, no network."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from tests.evals.conftest import write_yaml

pytest.importorskip("vcr")

ANSWERS = {
    "answers": [
        {"kind": "classify", "message": "I'm allergic to shellfish",
         "tool_input": {"intent": "remember_about_me", "personal_fact": "You're allergic to shellfish"}},
        {"kind": "classify", "message": "We use PostgreSQL for this project",
         "tool_input": {"intent": "add_knowledge", "knowledge": "We use PostgreSQL for this project"}},
        {"kind": "classify", "message": "what's a good marinade?",
         "tool_input": {"intent": "remember_about_me", "personal_fact": "You like marinades"}},
    ]
}  # fmt: skip

SUITE = {
    "name": "claude_tiny",
    "target": "classify",
    "gate": {"accuracy": 0.5},
    "cases": [
        {"id": "shellfish", "message": "I'm allergic to shellfish",
         "expect": {"intent": "remember_about_me", "params": {"personal_fact": {"contains": ["shellfish"]}}}},
        {"id": "postgres", "project": "Billing", "message": "We use PostgreSQL for this project",
         "expect": {"intent": "add_knowledge"}},
        {"id": "marinade", "project": "Cooking", "message": "what's a good marinade?",
         "expect": {"intent": "general_conversation"}},
    ],
}  # fmt: skip


def test_claude_replays_a_synthetic_cassette(tmp_path, monkeypatch):
    from evals.cassettes.session import cassette_claude
    from pipeline.providers.base import ClassifyRequest

    suite_path = write_yaml(tmp_path / "claude_tiny.yaml", SUITE)
    answers = write_yaml(tmp_path / "answers.yaml", ANSWERS)
    cassette = tmp_path / "synthetic" / "claude_tiny.yaml"
    cassette.parent.mkdir()
    # record through the real SDK against the loopback server, the way `converse record` would
    with cassette_claude(cassette, mode="record", rerecord="this test", answers=answers) as session:
        for case in load_suite(suite_path).cases:
            session.providers.classifier.classify(
                ClassifyRequest(message=case.message, project_name=case.project)
            )
    assert "synthetic-fixture" in cassette.read_text()

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = CliRunner().invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude",
         "--cassette", str(cassette), "--suite", str(suite_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["results"]
    assert (entry["n"], entry["passed"], entry["errors"]) == (3, 2, 0)
    assert entry["model"] == "synthetic-fixture"
    assert entry["provider_label"].endswith("(replayed from synthetic cassettes)")
    assert entry["prompt"].get("classifier")
    rows = [
        json.loads(line)
        for line in (tmp_path / "reports" / "runs").glob("*/results.jsonl").__next__().open()
    ]
    assert {r["cassette"] for r in rows} == {str(cassette)}
    assert all(r["tokens"]["input"] > 0 for r in rows)
    assert yaml.safe_load(cassette.read_text())  # still a readable cassette
