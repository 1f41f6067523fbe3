"""Start-up: help and everyday commands import no SDK, model runtime or report library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer._click import Context
from typer.main import get_group
from typer.testing import CliRunner

from evals.cli import HARNESS_COMMANDS, app
from pipeline.cli import COMMANDS, quick_help
from pipeline.cli.lazy import LazyGroup

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


def _page(draw: Callable[[LazyGroup, Context], None], capsys: pytest.CaptureFixture[str]) -> str:
    group = get_group(app)
    assert isinstance(group, LazyGroup)
    ctx = Context(group, info_name="converse")
    group._listing = True  # lists the commands without importing them, as --help does
    try:
        draw(group, ctx)
    finally:
        group._listing = False
    return capsys.readouterr().out


@pytest.mark.parametrize("width", ["60", "100", "140"])
def test_the_quick_root_page_is_typers_own_page(
    width: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from typer import rich_utils

    monkeypatch.setenv("COLUMNS", width)
    quick = _page(lambda g, ctx: quick_help.draw(g, ctx, g._listed(ctx)), capsys)
    typers = _page(lambda g, ctx: rich_utils.rich_format_help(obj=g, ctx=ctx, markup_mode="rich"),
                   capsys)  # fmt: skip
    assert quick_help.drawable(get_group(app), Context(get_group(app), info_name="converse"))
    assert quick == typers and "╭─ Commands" in quick


def test_a_page_with_more_than_the_root_has_is_left_to_typer() -> None:
    def shown(count: int = typer.Option(3, "--count", help="How many.")) -> None:
        """An option with a shown default."""

    def short(count: int | None = typer.Option(None, "--count", "-c", help="How many.")) -> None:
        """An option with a short name."""

    def panel(
        count: int | None = typer.Option(None, "--count", help="x", rich_help_panel="Other"),
    ) -> None:
        """An option in a panel of its own."""

    def plain(count: int | None = typer.Option(None, "--count", help="How many.")) -> None:
        """Only what the root has."""

    def drawable(callback: Callable[..., None]) -> bool:
        made = typer.Typer()
        made.callback()(callback)
        made.command()(plain)  # a group needs a command
        group = get_group(made)
        return quick_help.drawable(group, Context(group, info_name="x"))

    assert [drawable(c) for c in (shown, short, panel, plain)] == [False, False, False, True]


# Commands whose `--help` needs nothing of what they run: not the settings classes, the store,
# numbers or templates (Typer itself brings pydantic and its Rich help module).
LIGHT_HELP = ("chat", "consent", "status", "session", "worker", "stats", "explain", "person",
              "project", "db", "memory", "conversation", "view", "bench", "heartbeat", "mcp")  # fmt: skip
RUN_ONLY = ("pydantic_settings", "sqlalchemy", "numpy", "jinja2", "anthropic", "openai")


def test_everyday_command_helps_import_no_settings_or_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    found = {name: _run([name, "--help"], url, RUN_ONLY)[0] for name in LIGHT_HELP}
    assert found == {name: {"code": 0, "loaded": []} for name in LIGHT_HELP}
