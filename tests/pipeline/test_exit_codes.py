"""One exit code per kind of outcome, the same in the pipeline's and the harness's commands."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.cli.exits import EXIT_CHECK, EXIT_PROVIDER, EXIT_USAGE, exit_code
from pipeline.errors import (
    ConverseError,
    InvalidMessage,
    NotFound,
    PromptError,
    ProviderError,
    SchemaOutdated,
    StoreUnavailable,
)

runner = CliRunner()


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ConverseError("x"), EXIT_USAGE),
        (InvalidMessage("x"), EXIT_USAGE),
        (NotFound("x"), EXIT_USAGE),
        (StoreUnavailable("x"), EXIT_USAGE),
        (SchemaOutdated("x"), EXIT_USAGE),
        (PromptError("x"), EXIT_USAGE),
        (ProviderError("x"), EXIT_PROVIDER),
    ],
)
def test_each_kind_of_error_has_its_code(error: ConverseError, code: int) -> None:
    assert exit_code(error) == code


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'exit.db'}")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0


def test_an_unknown_person_exits_2_in_pipeline_commands(db) -> None:
    result = runner.invoke(app, ["memory", "list", "--person", "Bo"])
    assert result.exit_code == EXIT_USAGE
    assert result.output.startswith("error: no person named 'Bo'")


def test_a_missing_suite_exits_2_in_eval_and_in_record(tmp_path) -> None:
    missing = str(tmp_path / "missing.yaml")
    evaluated = runner.invoke(app, ["eval", "--suite", missing, "--no-report"])
    recorded = runner.invoke(app, ["record", "--suite", missing, "--synthetic", missing])
    assert (evaluated.exit_code, recorded.exit_code) == (EXIT_USAGE, EXIT_USAGE)


def test_an_erase_declined_at_a_terminal_exits_1(db, monkeypatch) -> None:
    monkeypatch.setattr("pipeline.cli.shelf_commands.is_interactive", lambda: True)
    runner.invoke(
        app, ["chat", "-p", "Ana", "--provider", "scripted", "-m", "I'm allergic to shellfish"]
    )
    runner.invoke(app, ["chat", "-p", "Ana", "--provider", "scripted", "-m", "yes"])
    result = runner.invoke(app, ["memory", "erase", "1", "--person", "Ana"], input="n\n")
    assert result.exit_code == EXIT_CHECK, result.output
    assert result.output.splitlines()[-1] == "Nothing erased."
