"""Settings are read one way: the pydantic-settings classes of the settings modules. No other
code in pipeline/ or evals/ reads the environment itself, so every variable is checked, has its
row in docs/settings.md and gives the same one-line error."""

from __future__ import annotations

import re

from pipeline.config import PROJECT_ROOT

# The modules whose settings classes read the environment.
SETTINGS_MODULES = {
    "pipeline/settings.py",
    "pipeline/config.py",
    "pipeline/local_settings.py",
    "pipeline/providers/settings.py",
    "evals/settings.py",
}
# Code that touches the environment for something other than reading a setting: the file, the
# lines it may have (each must match), and why.
NOT_SETTINGS = {
    # sets the Hugging Face libraries' own variables (offline, quiet) before they load
    "pipeline/providers/local/sbert.py": r"os\.environ\.setdefault\(name, value\)",
    # build the environment of the `converse` child process they time
    "evals/bench/cli.py": r"\*\*os\.environ,|os\.environ\.get\(\"PYTHONPATH\"\)",
    "evals/bench/view.py": r"\*\*os\.environ,|os\.environ\.get\(\"PYTHONPATH\"\)",
    # sets CONVERSE_ANN_MIN_VECTORS for the search it measures, as a person would
    "evals/bench/search_scale.py": r"CONVERSE_ANN_MIN_VECTORS",
    # the login name, the reviewer when CONVERSE_REVIEWER is unset
    "evals/report/reviews.py": r"os\.environ\.get\(\"USER(NAME)?\"\)",
    # Typer's own variables (width, colour), read as Typer reads them to draw its root page
    "pipeline/cli/quick_help.py": r'os\.getenv\("(TERMINAL_WIDTH|GITHUB_ACTIONS|_TYPER_FORCE_DISABLE_TERMINAL)"\)',
    # the text of the file promptfoo runs in its own Python, not code of the harness
    "evals/export/promptfoo.py": r"CONVERSE_HARNESS_ROOT",
}
READS = re.compile(r"\bos\.environ\b|\bgetenv\(|\benviron\.get\(|\benviron\[")


def _readers() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for folder in ("pipeline", "evals"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            name = path.relative_to(PROJECT_ROOT).as_posix()
            lines = path.read_text(encoding="utf-8").splitlines()
            hits = [line.strip() for line in lines if READS.search(line.split("#")[0])]
            if hits:
                found[name] = hits
    return found


def test_only_the_settings_modules_read_the_environment():
    readers = _readers()
    stray = {
        name: [hit for hit in hits if not re.search(NOT_SETTINGS.get(name, "^$"), hit)]
        for name, hits in readers.items()
        if name not in SETTINGS_MODULES
    }
    stray = {name: hits for name, hits in stray.items() if hits}
    assert not stray, f"read a settings class instead: {stray}"


def test_the_exceptions_still_touch_the_environment():
    """An exception that no longer touches the environment leaves the list."""
    assert set(NOT_SETTINGS) <= set(_readers())


def test_a_bad_provider_variable_at_the_command_line_is_the_same_one_line_error(
    tmp_path, monkeypatch
):
    """The `converse --claude-*` options do not read the variables themselves (they would
    refuse a bad one in their own words, and name an option for a variable)."""
    from typer.testing import CliRunner

    from evals.cli import app

    runner = CliRunner()
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'settings.db'}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-used")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    chat = ["chat", "--person", "Ana", "--provider", "claude", "-m", "hello"]
    for value, why in [
        ("abc", "input should be a valid number, unable to parse string as a number"),
        ("-1", "input should be greater than 0"),
    ]:
        monkeypatch.setenv("CONVERSE_CLAUDE_TIMEOUT", value)
        refused = runner.invoke(app, chat)
        assert refused.exit_code == 2, refused.output
        assert refused.output == (
            f"error: CONVERSE_CLAUDE_TIMEOUT={value!r} is not valid: {why} — fix or unset "
            "CONVERSE_CLAUDE_TIMEOUT (docs/settings.md lists every setting)\n"
        )
