"""`converse --help` drawn with a few Rich classes instead of typer.rich_utils, which imports
Markdown, Syntax, Traceback and Pretty (markdown-it, Pygments, attrs) for any help page: about
half of the listing's start-up. The page is Typer's own, to the character (a test compares
them); a group with anything more than the root has (arguments, short names, shown defaults
or variables, panels, an epilog) is drawn by Typer as before."""

from __future__ import annotations

import inspect
import os

from rich.columns import Columns
from rich.console import Console
from rich.highlighter import RegexHighlighter
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.theme import Theme
from typer import _click as click
from typer.core import TyperGroup, TyperOption

# Typer's styles and highlighting (typer/rich_utils.py), so the page looks the same.
_THEME = Theme(
    {
        "option": "bold cyan",
        "switch": "bold green",
        "types": "bold yellow",
        "types_sep": "dim",
        "usage": "yellow",
    }
)


class _Highlighter(RegexHighlighter):
    highlights = [  # noqa: RUF012 (Rich reads this class attribute)
        r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
        r"(?P<types>\<[^\>]+\>)",
        r"(?P<usage>Usage: )",
    ]


class _TypesHighlighter(RegexHighlighter):
    highlights = [  # noqa: RUF012
        r"^(?P<types_sep>(\[|<))",
        r"(?P<types_sep>\|)",
        r"(?P<types_sep>(\]|>))(\.\.\.)?$",
    ]


# The parts of Typer's options the page is drawn from.
_TYPER_PARTS = ("display_type_rich", "_extract_default_help_str", "_get_number_range_help_str")
_HIGHLIGHT = _Highlighter()
_TYPES = _TypesHighlighter()


def _console() -> Console:
    width = os.getenv("TERMINAL_WIDTH")
    forced = bool(os.getenv("GITHUB_ACTIONS") or os.getenv("FORCE_COLOR") or os.getenv("PY_COLORS"))
    return Console(
        theme=_THEME,
        highlighter=_HIGHLIGHT,
        force_terminal=False if os.getenv("_TYPER_FORCE_DISABLE_TERMINAL") else forced or None,
        width=int(width) if width else None,
    )


def drawable(group: TyperGroup, ctx: click.Context) -> bool:
    """Whether this page needs nothing but what `draw` knows: long options with a type and a
    help line, and commands with theirs (and a Typer whose page this is: pyproject.toml allows
    releases that drew it otherwise)."""
    if not all(hasattr(TyperOption, name) for name in _TYPER_PARTS):
        return False
    if getattr(group, "rich_markup_mode", None) != "rich" or group.epilog or group.deprecated:
        return False
    if "\n\n" in inspect.cleandoc(group.help or "").partition("\f")[0]:
        return False
    if ctx.auto_envvar_prefix is not None:  # every option would show a variable
        return False
    for param in group.get_params(ctx):
        if not isinstance(param, TyperOption) or getattr(param, "hidden", False):
            return False
        default = param._extract_default_help_str(ctx=ctx)
        shown = (
            (param.envvar and param.show_envvar)
            or isinstance(param.show_default, str)
            or (default is not None and (param.show_default or ctx.show_default))
            or param.required
        )
        short = [o for o in [*param.opts, *param.secondary_opts] if not o.startswith("--")]
        if shown or short or param.secondary_opts or param.rich_help_panel:
            return False
        if param._get_number_range_help_str() or "\n" in (param.help or ""):
            return False
    return True


def draw(group: TyperGroup, ctx: click.Context, commands: list[click.Command]) -> None:
    """Print the page: usage, the group's help, its options, its commands."""
    console = _console()
    console.print(Padding(_HIGHLIGHT(group.get_usage(ctx)), 1), style="bold")
    if group.help:
        first = inspect.cleandoc(group.help).partition("\f")[0].split("\n\n")[0]
        console.print(Padding(_HIGHLIGHT(Text.from_markup(first.replace("\n", " ").strip())),
                              (0, 1, 1, 1)))  # fmt: skip
    options = _table()
    for param in group.get_params(ctx):
        assert isinstance(param, TyperOption)
        kind = Text(param.display_type_rich(ctx=ctx) or "", style="bold yellow", overflow="fold")
        help_text = _HIGHLIGHT(Text.from_markup(inspect.cleandoc((param.help or "").strip())))
        options.add_row(
            _HIGHLIGHT(",".join(param.opts)), _HIGHLIGHT(""), _HIGHLIGHT(""), _HIGHLIGHT(""),
            _TYPES(kind), Columns([help_text] if param.help else []),
        )  # fmt: skip
    _panel(console, options, "Options")
    listing = _table()
    listing.add_column(
        style="bold cyan", no_wrap=True, width=max(len(c.name or "") for c in commands)
    )
    listing.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for command in commands:
        line = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        line = inspect.cleandoc(line.replace("\b\n", "").strip())
        listing.add_row(Text(command.name or ""), _HIGHLIGHT(Text.from_markup(line)))
    _panel(console, listing, "Commands")


def _table() -> Table:
    return Table(
        highlight=True, show_header=False, expand=True, box=None, show_lines=False, leading=0,
        pad_edge=False, padding=(0, 1),
    )  # fmt: skip


def _panel(console: Console, table: Table, title: str) -> None:
    if table.row_count:
        console.print(Panel(table, border_style="dim", title=title, title_align="left"))
