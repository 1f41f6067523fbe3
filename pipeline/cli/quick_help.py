"""Help pages drawn with a few Rich classes instead of typer.rich_utils, which imports Markdown,
Syntax, Traceback and Pretty (markdown-it, Pygments, attrs) for any help page: a third of a
light command's `--help`. Each page is Typer's own, to the character (tests/pipeline/
test_quick_help.py compares every page of `converse` and pages with every kind of parameter);
this is typer/rich_utils.py's `rich_format_help` for Rich markup, the one mode converse uses.
A page in Markdown markup, or a Typer without the parts it is drawn from, is left to Typer."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterable, Sequence

from rich.align import Align
from rich.columns import Columns
from rich.console import Console, RenderableType, group
from rich.highlighter import RegexHighlighter
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.theme import Theme
from typer import _click as click
from typer import core as typer_core
from typer.core import TyperArgument, TyperGroup, TyperOption

# Typer's styles and highlighting (typer/rich_utils.py), so the page looks the same.
_THEME = Theme(
    {
        "option": "bold cyan",
        "switch": "bold green",
        "negative_option": "bold magenta",
        "negative_switch": "bold red",
        "types": "bold yellow",
        "types_sep": "dim",
        "usage": "yellow",
    }
)
_DEPRECATED = "(deprecated) "


class _Highlighter(RegexHighlighter):
    highlights = [  # noqa: RUF012 (Rich reads this class attribute)
        r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
        r"(?P<types>\<[^\>]+\>)",
        r"(?P<usage>Usage: )",
    ]


class _NegativeHighlighter(RegexHighlighter):
    highlights = [  # noqa: RUF012
        r"(^|\W)(?P<negative_switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<negative_option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
    ]


class _TypesHighlighter(RegexHighlighter):
    highlights = [  # noqa: RUF012
        r"^(?P<types_sep>(\[|<))",
        r"(?P<types_sep>\|)",
        r"(?P<types_sep>(\]|>))(\.\.\.)?$",
    ]


# The parts of Typer's parameters the page is drawn from.
_TYPER_PARTS = (
    "display_type_rich",
    "_extract_default_help_str",
    "_get_default_string",
    "_get_number_range_help_str",
)
_HIGHLIGHT = _Highlighter()
_NEGATIVE = _NegativeHighlighter()
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


def drawable(command: click.Command) -> bool:
    """Whether Typer would draw this page in Rich markup, from parts this module knows (a
    release that pyproject.toml allows may have drawn it otherwise)."""
    kinds = (TyperOption, TyperArgument)
    return (
        all(hasattr(kind, name) for kind in kinds for name in _TYPER_PARTS)
        and hasattr(TyperArgument, "display_name_raw")
        and bool(getattr(typer_core, "HAS_RICH", False))
        and getattr(command, "rich_markup_mode", None) == "rich"
    )


def draw(command: click.Command, ctx: click.Context) -> None:
    """Print the page: usage, help, arguments and options by panel, commands, epilog."""
    console = _console()
    console.print(Padding(_HIGHLIGHT(command.get_usage(ctx)), 1), style="bold")
    if command.help:
        console.print(Padding(Align(_help_text(command), pad=False), (0, 1, 1, 1)))
    arguments: dict[str, list[TyperArgument | TyperOption]] = {"Arguments": []}
    options: dict[str, list[TyperArgument | TyperOption]] = {"Options": []}
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        if isinstance(param, TyperArgument):
            arguments.setdefault(param.rich_help_panel or "Arguments", []).append(param)
        elif isinstance(param, TyperOption):
            options.setdefault(param.rich_help_panel or "Options", []).append(param)
    for panels in (arguments, options):
        for name, params in panels.items():
            _options_panel(console, name, params, ctx)
    if isinstance(command, TyperGroup):
        _commands(console, command, ctx)
    if command.epilog:
        console.print(Padding(Align(_rich_text(command.epilog), pad=False), 1))


def _rich_text(text: str, style: str = "") -> Text:
    text = inspect.cleandoc(text)
    if "\033[" in text:
        return _HIGHLIGHT(Text.from_ansi(text, style=style))
    return _HIGHLIGHT(Text.from_markup(text, style=style))


@group()
def _help_text(command: click.Command) -> Iterable[Text]:
    if command.deprecated:
        yield Text(_DEPRECATED, style="red")
    first, *rest = inspect.cleandoc(command.help or "").partition("\f")[0].split("\n\n")
    if not first.startswith("\b"):
        first = first.replace("\n", " ")
    yield _rich_text(first.strip())
    if rest:
        yield Text("")
        yield _rich_text("\n\n".join(rest), style="dim")


def _param_help(param: TyperArgument | TyperOption, ctx: click.Context) -> Columns:
    items: list[Text] = []
    envvar = param.envvar
    prefix = ctx.auto_envvar_prefix
    if envvar is None and getattr(param, "allow_from_autoenv", None) and prefix is not None:
        envvar = f"{prefix}_{param.name.upper()}" if param.name else None
    if param.help:
        paragraphs = "\n".join(_paragraph(p) for p in param.help.split("\n\n"))
        items.append(_rich_text(paragraphs.strip()))
    if envvar and getattr(param, "show_envvar", None):
        shown = envvar if isinstance(envvar, str) else ", ".join(str(v) for v in envvar)
        items.append(Text(f"[env var: {shown}]", style="dim yellow"))
    default = param._extract_default_help_str(ctx=ctx)
    given = isinstance(param.show_default, str)
    if given or (default is not None and (param.show_default or ctx.show_default)):
        text = param._get_default_string(ctx=ctx, show_default_is_str=given, default_value=default)
        if text:
            items.append(Text(f"[default: {text}]", style="dim"))
    if param.required:
        items.append(Text("[required]", style="dim red"))
    return Columns(items)


def _paragraph(text: str) -> str:
    """One paragraph of a parameter's help: single line breaks dropped, unless it opens with
    click's no-rewrap mark."""
    return text.strip("\b\n") + "\n" if text.startswith("\b") else text.replace("\n", " ").strip()


def _names(param: TyperArgument | TyperOption) -> list[str]:
    """Long names, short names (an argument's display name), secondary long and short."""
    shown = None
    if isinstance(param, TyperArgument):
        many = param.metavar is None and param.nargs != 1
        shown = param.display_name_raw + ("..." if many else "")
    names: list[list[str]] = [[], [], [], []]
    for offset, opts in ((0, param.opts), (2, param.secondary_opts)):
        for opt in opts:
            names[offset if "--" in opt else offset + 1].append(
                opt if "--" in opt or not shown else shown
            )
    return [",".join(found) for found in names]


def _options_panel(
    console: Console,
    name: str,
    params: Sequence[TyperArgument | TyperOption],
    ctx: click.Context,
) -> None:
    rows: list[list[RenderableType]] = []
    required: list[str | Text] = []
    for param in params:
        kind = Text(style="bold yellow", overflow="fold")
        shown = param.display_type_rich(ctx=ctx)
        if shown is not None:
            kind.append(shown)
        limits = param._get_number_range_help_str()
        if limits:
            kind.append(f" [{limits}]")
        required.append(Text("*", style="red") if param.required else "")
        long, short, negative_long, negative_short = _names(param)
        rows.append([
            _HIGHLIGHT(long), _HIGHLIGHT(short), _NEGATIVE(negative_long),
            _NEGATIVE(negative_short), _TYPES(kind), _param_help(param, ctx),
        ])  # fmt: skip
    if not rows:
        return
    table = _table(highlight=True)
    for mark, row in zip(required, rows, strict=True):
        table.add_row(*([mark, *row] if any(required) else row))
    console.print(Panel(table, border_style="dim", title=name, title_align="left"))


def _commands(console: Console, command: TyperGroup, ctx: click.Context) -> None:
    panels: dict[str, list[click.Command]] = {"Commands": []}
    for name in command.list_commands(ctx):
        found = command.get_command(ctx, name)
        if found and not found.hidden:
            panel = getattr(found, "rich_help_panel", None) or "Commands"
            panels.setdefault(panel, []).append(found)
    width = max((len(c.name or "") for listed in panels.values() for c in listed), default=0)
    for name, listed in panels.items():
        table = _table(highlight=False)
        table.add_column(style="bold cyan", no_wrap=True, width=width)
        table.add_column("Description", justify="left", no_wrap=False, ratio=10)
        deprecated = [Text(_DEPRECATED, style="red") if c.deprecated else None for c in listed]
        for found, flag in zip(listed, deprecated, strict=True):
            title = Text(found.name or "", style="dim" if found.deprecated else "")
            row: list[RenderableType | None] = [title, _command_line(found)]
            table.add_row(*([*row, flag] if any(deprecated) else row))
        if table.row_count:
            console.print(Panel(table, border_style="dim", title=name, title_align="left"))


def _command_line(command: click.Command) -> Text:
    first = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
    if first.startswith("\b"):
        first = first.replace("\b\n", "")
    return _rich_text(first.strip())


def _table(*, highlight: bool) -> Table:
    return Table(
        highlight=highlight, show_header=False, expand=True, box=None, show_lines=False,
        leading=0, pad_edge=False, padding=(0, 1), border_style=None, row_styles=None,
    )  # fmt: skip
