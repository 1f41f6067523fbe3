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


def test_without_a_key_claude_replays_each_suites_recorded_cassette(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(tmp_path / "fixtures"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    answers = write_yaml(tmp_path / "answers.yaml", ANSWERS)
    first = write_yaml(tmp_path / "claude_tiny.yaml", SUITE)
    second = write_yaml(
        tmp_path / "claude_two.yaml",
        {**SUITE, "name": "claude_two", "cases": SUITE["cases"][:1]},
    )
    runner = CliRunner()
    for suite in (first, second):
        recorded = runner.invoke(
            app, ["record", "--suite", str(suite), "--synthetic", str(answers)]
        )
        assert recorded.exit_code == 0, recorded.output
    cassettes = tmp_path / "fixtures" / "cassettes" / "synthetic" / "suites"
    assert sorted(p.name for p in cassettes.iterdir()) == ["claude_tiny.yaml", "claude_two.yaml"]

    result = runner.invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude",
         "--suite", str(first), "--suite", str(second)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "replayed from its recorded cassette" in result.stderr
    results = {r["suite"]: r for r in json.loads(result.stdout)["results"]}
    assert (results["claude_tiny"]["passed"], results["claude_tiny"]["n"]) == (2, 3)
    assert (results["claude_two"]["passed"], results["claude_two"]["n"]) == (1, 1)
    assert all(r["errors"] == 0 for r in results.values())

    (cassettes / "claude_two.yaml").unlink()
    missing = runner.invoke(
        app, ["eval", "--no-progress", "--provider", "claude", "--suite", str(second)]
    )
    assert missing.exit_code == 2
    assert missing.stderr == (
        "error: no recorded cassette for suite claude_two, so Claude cannot be replayed — "
        f"record it with ANTHROPIC_API_KEY set: converse record --suite {second}; or set "
        "ANTHROPIC_API_KEY to run live\n"
    )


def test_without_a_key_or_cassettes_eval_prints_the_record_commands_and_leaves_no_run(
    tmp_path, monkeypatch
):
    """Suites under evals/suites are named by name; one line, exit 2, no run folder."""
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(tmp_path / "fixtures"))
    monkeypatch.setenv("CONVERSE_SUITES_DIR", str(tmp_path / "suites"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    (tmp_path / "suites").mkdir()
    write_yaml(tmp_path / "suites" / "claude_tiny.yaml", SUITE)
    write_yaml(tmp_path / "suites" / "claude_talk.yaml", CONVERSATION_SUITE)

    result = CliRunner().invoke(app, ["eval", "--no-progress", "--provider", "claude"])

    assert result.exit_code == 2
    assert result.stderr == (
        "error: no recorded cassettes for suites claude_talk, claude_tiny, so Claude cannot be "
        "replayed — record them with ANTHROPIC_API_KEY set: converse record --suite claude_talk; "
        "converse record --suite claude_tiny (or every suite: converse record --all); or set "
        "ANTHROPIC_API_KEY to run live\n"
    )
    runs = tmp_path / "reports" / "runs"
    assert not runs.exists() or list(runs.iterdir()) == []


CONVERSATION_ANSWERS = {
    "answers": [
        {"kind": "classify", "message": "I'm allergic to shellfish",
         "tool_input": {"intent": "remember_about_me", "personal_fact": "You're allergic to shellfish"}},
        {"kind": "classify", "message": "yes", "tool_input": {"intent": "remember_about_me"}},
        {"kind": "respond", "text": "I'll remember that you're allergic to shellfish — is that right?"},
        {"kind": "respond", "message": "yes", "text": "Got it."},
    ]
}  # fmt: skip

CONVERSATION_SUITE = {
    "name": "claude_talk",
    "target": "conversation",
    "gate": {"accuracy": 1.0},
    "cases": [
        {"id": "confirm", "turns": [
            {"message": "I'm allergic to shellfish", "project": "Cooking",
             "expect": {"action": "held", "memory": [{"state": "held", "text": {"contains": ["shellfish"]}}]}},
            {"message": "yes", "project": "Cooking",
             "expect": {"action": "committed", "reply": {"contains": ["got it"]},
                        "memory": [{"state": "committed", "text": {"contains": ["shellfish"]}}],
                        "memory_only": True}},
        ]},
    ],
}  # fmt: skip


def test_claude_replays_a_conversation_from_a_synthetic_cassette(tmp_path, monkeypatch):
    from evals.cassettes.session import cassette_claude
    from evals.dataset import ConversationCase
    from evals.runner.conversation import run_conversation
    from evals.runner.providers import Bound
    from evals.runner.sandbox import Sandbox
    from pipeline.prompting import default_library

    suite_path = write_yaml(tmp_path / "claude_talk.yaml", CONVERSATION_SUITE)
    answers = write_yaml(tmp_path / "answers.yaml", CONVERSATION_ANSWERS)
    cassette = tmp_path / "synthetic" / "claude_talk.yaml"
    cassette.parent.mkdir()
    (case,) = load_suite(suite_path).cases
    assert isinstance(case, ConversationCase)
    sandbox = Sandbox()
    with cassette_claude(cassette, mode="record", rerecord="this test", answers=answers) as session:
        providers = session.providers
        bound = Bound("claude", "claude", "", "", providers.classifier, providers.responder,
                      default_library(), providers=providers)  # fmt: skip
        recorded = run_conversation(case, bound, sandbox)
    sandbox.close()
    assert recorded.error is None, recorded.error

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = CliRunner().invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude",
         "--cassette", str(cassette), "--suite", str(suite_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["results"]
    assert (entry["n"], entry["passed"], entry["errors"]) == (1, 1, 0)
    assert entry["model"] == "synthetic-fixture"
