"""`converse conversation ...`: the lifecycle from the command line, with the non-interactive
flags and the interactive review driven through its prompts."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.store import open_store
from tests.conversations.helpers import talk

runner = CliRunner()
ANA = ["--person", "Ana"]


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("CONVERSE_PROVIDER", "local")
    monkeypatch.setenv("COLUMNS", "200")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, ["project", "add", "Garden", *ANA]).exit_code == 0
    store = open_store(url)
    talk(
        store,
        "Ana",
        "I decided to build raised beds because the soil is clay",
        "I'm waiting on Tom for the timber quote",
        project="Garden",
    )
    store.dispose()
    return url


def _run(*args: str, input: str | None = None):
    return runner.invoke(app, ["conversation", *args, *ANA], input=input)


def test_list_close_review_confirm(env):
    listed = _run("list")
    assert listed.exit_code == 0 and "active" in listed.stdout and "4 turns" in listed.stdout
    closed = _run("close")
    assert closed.exit_code == 0, closed.output
    assert "ready_to_close" in closed.stdout
    assert "Decision: build raised beds — because the soil is clay" in closed.stdout
    assert "Waiting on: Tom: the timber quote" in closed.stdout
    assert "Destination: Garden" in closed.stdout
    assert "entities: deterministic (no model)" in closed.stdout
    kept = _run(
        "review",
        "--edit",
        "Ana will build raised beds. Tom owes a quote.",
        "--confirm",
        "--no-embed",
    )
    assert kept.exit_code == 0, kept.output
    assert (
        "archived" in kept.stdout and "Ana will build raised beds. Tom owes a quote." in kept.stdout
    )
    assert "(edited; extracted:" in kept.stdout
    assert json.loads(_run("list", "--json").stdout)[0]["status"] == "archived"
    # Nothing is open any more: commands needing one say what to do.
    again = _run("close")
    assert again.exit_code == 2
    assert "this person has no open conversation" in again.stderr


def test_redirect_split_and_resume_without_prompts(env):
    assert _run("close").exit_code == 0
    preview = json.loads(_run("review", "--redirect", "Your Story", "--json").stdout)
    (memory,) = preview["memories"]
    assert memory["destination"]["name"] == "Your Story"
    ids = {e["kind"]: e["id"] for e in memory["entities"]}
    split = _run(
        "review",
        "--split",
        f"Garden|Ana chose raised beds. The soil is clay.|{ids['decisions']}",
        "--split",
        f"Your Story|Ana waits on Tom. The quote is due.|{ids['waiting_on']}",
        "--json",
    )
    assert split.exit_code == 0, split.output
    parts = json.loads(split.stdout)["memories"]
    assert [p["destination"]["name"] for p in parts] == ["Garden", "Your Story"]
    ambiguous = _run("review", "--edit", "Which one? Unclear.")
    assert ambiguous.exit_code == 2 and "has 2 draft memories" in ambiguous.stderr
    resumed = _run("resume")
    assert resumed.exit_code == 0 and "active again" in resumed.stdout
    shown = json.loads(_run("show", "--json").stdout)
    assert shown["conversation"]["status"] == "active" and shown["memories"] == []


def test_bad_flags_are_one_line_errors(env):
    assert _run("close").exit_code == 0
    bad = _run("review", "--split", "Garden-only")
    assert bad.exit_code == 2 and "is not DESTINATION|NARRATIVE" in bad.stderr
    unknown = _run("review", "--redirect", "Boat")
    assert unknown.exit_code == 2 and "no destination 'Boat'" in unknown.stderr
    both = _run("review", "--resume", "--confirm")
    assert both.exit_code == 2 and "--resume cancels the review" in both.stderr
    paused = _run("pause")
    assert paused.exit_code == 2 and "only an active one can be paused" in paused.stderr


def test_the_interactive_review_edits_then_confirms(env):
    assert _run("close").exit_code == 0
    done = _run(
        "review",
        "--interactive",
        "--no-embed",
        input="e\nAna chose raised beds for the clay. Tom owes a timber quote.\nc\n",
    )
    assert done.exit_code == 0, done.output
    assert "Kept; conversation" in done.stdout
    memory = json.loads(_run("show", "--json", "--id", "1").stdout)["memories"][0]
    assert memory["narrative"] == "Ana chose raised beds for the clay. Tom owes a timber quote."
    assert memory["status"] == "confirmed"


def test_the_interactive_review_can_resume(env):
    assert _run("close").exit_code == 0
    done = _run("review", "--interactive", input="u\n")
    assert done.exit_code == 0 and "Active again" in done.stdout
    assert json.loads(_run("list", "--json").stdout)[0]["status"] == "active"


def test_pause_and_resume_flag(env):
    assert _run("pause").exit_code == 0
    assert "paused" in _run("list").stdout
    unpaused = _run("resume")
    assert unpaused.exit_code == 0 and "no longer paused" in unpaused.stdout
