"""A message a bad setting refuses is never stored: the next chat does not answer it later."""

from __future__ import annotations

import pytest
import yaml
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()

# Every kind of setting a turn reads, each with a value outside its range.
BAD = [
    ("CONVERSE_WORKING_MEMORY_TTL_DAYS", "0"),
    ("CONVERSE_COALESCE_WINDOW_S", "-1"),
    ("CONVERSE_SESSION_GAP_HOURS", "0"),
    ("CONVERSE_COMPACTION_THRESHOLD_TOKENS", "1"),
    ("CONVERSE_COMPACTION_INSTRUCTIONS_FILE", "/nonexistent/COMPACTION.md"),
    ("CONVERSE_ON_DEMAND_RECALL", "sometimes"),
    ("CONVERSE_MULTI_FACT_EXTRACTION", "maybe"),
    ("CONVERSE_MULTI_FACT_DAILY_CAP", "0"),
    ("CONVERSE_RELATIONS_TOP_K", "500"),
    ("CONVERSE_ANN_EXPANSION", "0"),
]


@pytest.fixture
def chat(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'settings.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    script = tmp_path / "script.yaml"
    fact = {"intent": "remember_about_me", "params": {"personal_fact": "You like apples"}}
    turns = [
        {"message": "I like apples", **fact},
        {"message": "yes", "after": "remember_about_me", **fact},
        {"message": "hello", "intent": "general_conversation", "params": {}},
    ]
    script.write_text(yaml.safe_dump({"turns": turns}), encoding="utf-8")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    args = ["chat", "--person", "Ana", "--provider", "scripted", "--script", str(script)]
    assert runner.invoke(app, [*args, "-m", "I like apples"]).exit_code == 0
    return url, args


def _count(url: str, table: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text(f"select count(*) from {table}")).scalar_one()
    engine.dispose()
    return int(found)


@pytest.mark.parametrize(("name", "value"), BAD, ids=[n for n, _ in BAD])
def test_a_refused_yes_is_never_stored_nor_answered_later(chat, monkeypatch, name, value):
    url, args = chat
    monkeypatch.setenv(name, value)
    refused = runner.invoke(app, [*args, "-m", "yes"])
    assert refused.exit_code == 2, refused.output
    assert name in refused.output
    assert _count(url, "inbox") == 0
    monkeypatch.delenv(name)
    later = runner.invoke(app, [*args, "-m", "hello"])
    assert later.exit_code == 0, later.output
    assert "before the last stop" not in later.output
    listed = runner.invoke(app, ["memory", "list", "--person", "Ana"])
    assert "held" in listed.output and "committed" not in listed.output
