"""Every help page drawn without Typer's Rich help module is Typer's own page, to the character:
each page of `converse` (the root, every group and command) and pages with every kind of
parameter converse does not use yet."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path

import pytest
import typer
from typer import rich_utils
from typer._click import Command, Context
from typer.core import TyperGroup
from typer.main import get_command, get_group

from evals.cli import app
from pipeline.cli import quick_help
from pipeline.cli.lazy import LazyCommand, LazyGroup

WIDTHS = ["60", "100", "140"]


def _pages() -> Iterator[tuple[str, Command, Context]]:
    """(path, command, context) of every page, as `converse ... --help` reaches it."""
    root = get_group(app)
    assert isinstance(root, LazyGroup)
    top = Context(root, info_name="converse")
    yield "", root, top
    stack = [(name, entry.load(name), top) for name, entry in root.lazy.items()]
    while stack:
        path, command, parent = stack.pop(0)
        ctx = Context(command, info_name=command.name, parent=parent)
        yield path, command, ctx
        if isinstance(command, TyperGroup):
            for name in command.list_commands(ctx):
                child = command.get_command(ctx, name)
                if child is not None and not child.hidden:
                    stack.append((f"{path} {name}", child, ctx))


PAGES = list(_pages())


def _both(command: Command, ctx: Context, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The page drawn here and the page Typer draws, as `--help` draws them."""

    def page(draw: Callable[[], None]) -> str:
        listing = isinstance(command, LazyGroup)
        if listing:
            command._listing = True  # lists the commands without importing them, as --help does
        try:
            draw()
        finally:
            if listing:
                command._listing = False
        return capsys.readouterr().out

    quick = page(lambda: quick_help.draw(command, ctx))
    typers = page(lambda: rich_utils.rich_format_help(obj=command, ctx=ctx, markup_mode="rich"))
    return quick, typers


def test_every_page_of_converse_is_listed() -> None:
    paths = {path for path, _, _ in PAGES}
    assert {
        "",
        "eval",
        "memory",
        "memory list",
        "bench cli",
        "runs list",
        "cassettes check",
    } <= paths
    assert len(paths) == len(PAGES) > 90


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_of_converse_is_typers_own_page(
    width: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", width)
    differ = []
    for path, command, ctx in PAGES:
        assert quick_help.drawable(command), path
        quick, typers = _both(command, ctx, capsys)
        if quick != typers or "Usage:" not in quick:
            differ.append(path or "(root)")
    assert differ == []


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


def everything(
    target: str = typer.Argument(..., help="What to act on.\n\nSecond paragraph."),
    extra: list[str] | None = typer.Argument(None, help="More of them.", rich_help_panel="More"),
    count: int = typer.Option(
        3, "--count", "-c", min=1, max=9, help="How many.", show_default=True
    ),
    colour: Colour = typer.Option(
        Colour.RED, help="A [bold]colour[/bold].", envvar="X_COLOUR", show_envvar=True
    ),
    loud: bool = typer.Option(False, "--loud/--quiet", "-l/-q", help="Volume."),
    path: Path | None = typer.Option(None, exists=False, help="A file.", rich_help_panel="Files"),
    name: str = typer.Option(..., help="\b\nkept\nas is", show_default="someone"),
    ratio: float = typer.Option(0.5, min=0.0, help="A ratio.", hidden=False),
    secret: str = typer.Option("", hidden=True),
    tags: list[str] = typer.Option([], "--tag", help="Repeatable.", metavar="TAG"),
) -> None:
    """First line of the help,
    wrapped.

    A second paragraph, [dim]marked up[/dim], with --options and -x switches.

    \b
    A block
      kept as written.
    \f
    Not shown.
    """


def _app() -> typer.Typer:
    made = typer.Typer(help="A group.\n\nWith more.", epilog="An [bold]epilog[/bold].")
    made.command(epilog="Below the options.")(everything)
    made.command("old", deprecated=True, help="Gone soon.")(lambda: None)
    made.command("hidden", hidden=True)(lambda: None)
    made.command("elsewhere", rich_help_panel="Other", help="\b\nIn a panel\nof its own.")(
        lambda: None
    )
    made.command("ansi", help="\x1b[1mbold\x1b[0m by escape codes.")(lambda: None)
    sub = typer.Typer(help="A nested group.", deprecated=True)
    sub.command()(lambda flag=typer.Option(False, help="A flag."): None)
    made.add_typer(sub, name="nested")

    @made.callback()
    def callback(verbose: bool = typer.Option(False, "--verbose", "-v", help="Say more.")) -> None:
        """A group.

        With more."""

    return made


@pytest.mark.parametrize("width", WIDTHS)
def test_pages_with_every_kind_of_parameter_are_typers_own(
    width: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", width)
    group = get_group(_app())
    top = Context(group, info_name="x", auto_envvar_prefix="APP")
    pages: list[tuple[Command, Context]] = [(group, top)]
    for name in group.list_commands(top):
        child = group.get_command(top, name)
        assert child is not None
        pages.append((child, Context(child, info_name=name, parent=top)))
    for command, ctx in pages:
        quick, typers = _both(command, ctx, capsys)
        assert quick == typers, command.name
        assert "X_COLOUR" in quick or command.name != "everything"


def test_a_page_in_markdown_is_left_to_typer() -> None:
    def page(mode: str) -> Command:
        made = typer.Typer(rich_markup_mode=mode)  # type: ignore[arg-type]
        made.command()(lambda: None)
        return get_command(made)

    assert [quick_help.drawable(page(mode)) for mode in ("markdown", "rich")] == [False, True]


def test_a_loaded_command_draws_its_page_without_typers_rich_module() -> None:
    command = LazyCommand("pipeline.cli.people:person_app", "x").load("person")
    assert type(command).format_help is not TyperGroup.format_help
