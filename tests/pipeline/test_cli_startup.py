"""Start-up: help and everyday commands import no SDK, model runtime or report library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import HARNESS_COMMANDS, app
from pipeline.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
HEAVY = (
    "anthropic",
    "openai",
    "torch",
    "pandas",
    "matplotlib",
    "onnxruntime",
    "scipy",
    "tokenizers",
    "xllamacpp",
)

# Runs the console script's app in a fresh interpreter, then names the heavy modules loaded.
PROBE = """
import json, sys
from evals.cli import app
try:
    app(sys.argv[1:], prog_name="converse")
except SystemExit as exc:
    code = exc.code
heavy = {heavy!r}
sys.stderr.write(json.dumps({{"code": code, "loaded": [m for m in heavy if m in sys.modules]}}))
"""


def _run(
    args: list[str], db_url: str, heavy: tuple[str, ...] = HEAVY
) -> tuple[dict[str, object], str]:
    """The exit code and which of `heavy` were loaded, and what the command printed."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CONVERSE_DB_URL": db_url,
        "CONVERSE_PROVIDER": "local",
    }
    env.pop("ANTHROPIC_API_KEY", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=heavy), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    result: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return result, done.stdout


def _loaded(args: list[str], db_url: str) -> dict[str, object]:
    return _run(args, db_url)[0]


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["person", "list"],
        ["memory", "list", "--person", "Ana"],
        ["memory", "--help"],
        ["chat", "--help"],
    ],
)
def test_everyday_commands_load_no_heavy_library(args: list[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'start.db'}"
    assert _loaded(["person", "add", "Ana"], url) == {"code": 0, "loaded": []}
    assert _loaded(args, url) == {"code": 0, "loaded": []}


def test_help_lists_every_command_with_its_own_help() -> None:
    """The one-line help kept beside each lazy command is the command's own first line."""
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name, entry in {**COMMANDS, **HARNESS_COMMANDS}.items():
        real = entry.load(name)
        assert (real.help or "").splitlines()[0] == entry.help, name
        assert name in result.output


def test_newest_migration_read_without_alembic_matches_alembic() -> None:
    from pipeline.store.engine import head_revision
    from pipeline.store.revisions import head_from_files

    assert head_from_files() == head_revision()


def test_memory_list_reads_sqlite_without_sqlalchemy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'start.db'}"
    assert _loaded(["person", "add", "Ana"], url)["code"] == 0
    loaded, printed = _run(["memory", "list", "--person", "Ana"], url, ("sqlalchemy", "alembic"))
    assert "Nothing is stored in Ana's personal memory." in printed
    assert loaded == {"code": 0, "loaded": []}


# What `converse --help` must not import: settings, the store, numbers, templates, and Typer's
# Rich help module (Markdown, Pygments, attrs), which the root page is drawn without.
ROOT_HELP_HEAVY = (
    "typer.rich_utils",
    "rich.markdown",
    "pygments",
    "pydantic",
    "pydantic_settings",
    "sqlalchemy",
    "numpy",
    "yaml",
    "jinja2",
)


def test_the_root_help_imports_no_settings_store_or_rich_help_module(tmp_path: Path) -> None:
    loaded, printed = _run(["--help"], f"sqlite:///{tmp_path / 'x.db'}", ROOT_HELP_HEAVY)
    assert loaded == {"code": 0, "loaded": []}
    assert "Usage: converse [OPTIONS] COMMAND [ARGS]..." in printed and "--claude-rpm" in printed


# Every command's `--help` needs nothing of what it runs: not the settings classes, the store,
# numbers, templates, pandas or an SDK, nor pydantic and Typer's Rich help module, which Typer
# brings only to check values and draw pages (pipeline/cli/lazy.py, pipeline/cli/quick_help.py).
# `converse bench cli` times every page, sub-commands included.
RUN_ONLY = (*ROOT_HELP_HEAVY, "pandas", "anthropic", "openai")


@pytest.mark.parametrize("name", [*COMMANDS, *HARNESS_COMMANDS])
def test_no_command_help_imports_settings_store_or_rich_help_module(
    name: str, tmp_path: Path
) -> None:
    found = _run([name, "--help"], f"sqlite:///{tmp_path / 'x.db'}", RUN_ONLY)[0]
    assert found == {"code": 0, "loaded": []}
