"""Commands that are imported only when they run, so `converse --help` starts at once.

A command's module may pull in SQLAlchemy, the local model or the anthropic SDK; listing the
commands needs none of that, so each is named here with the one line `--help` shows, and its
module is imported when the command is actually resolved. A resolved command's help page is
drawn by pipeline/cli/quick_help.py (Typer's page without Typer's Rich help module), and a
group's options not given skip Typer's value check, so `converse <command> --help` needs only
the command's options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer import _click as click  # Typer vendors click; its groups take these classes
from typer.core import TyperCommand, TyperGroup, TyperOption


@dataclass(frozen=True)
class LazyCommand:
    """Where a command or command group lives ("module:attribute") and its one-line help."""

    target: str
    help: str

    def load(self, name: str) -> click.Command:
        """Import the command and turn it into the click command Typer would have built."""
        module, _, attribute = self.target.partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if isinstance(found, typer.Typer):
            # a group even with one subcommand, as add_typer would make it
            command: click.Command = typer.main.get_group(found)
        else:
            single = typer.Typer()
            single.command(name)(found)
            command = typer.main.get_command(single)
        command.name = name
        _quicken(command)
        return command


class _QuickCommand(TyperCommand):
    """A Typer command whose help page is drawn by pipeline/cli/quick_help.py."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Typer's page, without importing Typer's Rich help module when it can."""
        _format_help(self, ctx, formatter, super().format_help)


class _QuickGroup(TyperGroup):
    """A Typer group whose help page is drawn by pipeline/cli/quick_help.py."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Typer's page, without importing Typer's Rich help module when it can."""
        _format_help(self, ctx, formatter, super().format_help)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """The group's parameters, its options checked lightly when not given."""
        return _light(super().get_params(ctx))


class _GroupOption(TyperOption):
    """A group's option, read before any subcommand's page is printed: one not given is None
    without Typer's value check, which imports pydantic (about 60 ms) to say so."""

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        """What Typer makes of the value; None, as Typer's check returns it, without it."""
        if value is not None or self.multiple or self.nargs != 1 or self.required:
            return super().process_value(ctx, value)
        return None if self.callback is None else self.callback(ctx, self, value)


def _light(params: list[click.Parameter]) -> list[click.Parameter]:
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = _GroupOption
    return params


def _format_help(
    command: click.Command,
    ctx: click.Context,
    formatter: click.HelpFormatter,
    typers: Callable[[click.Context, click.HelpFormatter], None],
) -> None:
    from pipeline.cli import quick_help

    if quick_help.drawable(command):
        quick_help.draw(command, ctx)
    else:
        typers(ctx, formatter)


def _quicken(command: click.Command) -> None:
    """Give Typer's commands in this tree the quick page, and groups' options the light check
    (classes swapped, not subclassed by each module, so a command module stays plain Typer)."""
    if type(command) is TyperCommand:
        command.__class__ = _QuickCommand
    elif type(command) is TyperGroup:
        command.__class__ = _QuickGroup
    if isinstance(command, TyperGroup):
        for child in command.commands.values():
            _quicken(child)


class _Placeholder(TyperCommand):
    """Stands in for a lazy command until it is resolved; carries only its help line."""


class LazyGroup(TyperGroup):
    """A Typer group whose `lazy` commands load on first use; help lists them unloaded."""

    lazy: ClassVar[dict[str, LazyCommand]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False
        for name, entry in self.lazy.items():
            if name not in self.commands:
                self.commands[name] = _Placeholder(name, help=entry.help, short_help=entry.help)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """The group's parameters, its options checked lightly when not given."""
        return _light(super().get_params(ctx))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command; a placeholder while help is being listed, else the real one."""
        command = self.commands.get(cmd_name)
        if isinstance(command, _Placeholder) and not self._listing:
            command = self.commands[cmd_name] = self.lazy[cmd_name].load(cmd_name)
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Help that lists every command without importing any of them (nor, where it can,
        Typer's Rich help module: pipeline/cli/quick_help.py)."""
        self._listing = True
        try:
            _format_help(self, ctx, formatter, super().format_help)
        finally:
            self._listing = False


def lazy_group(commands: dict[str, LazyCommand]) -> type[LazyGroup]:
    """A LazyGroup class for these commands (Typer builds the group from a class)."""
    return type("ConverseGroup", (LazyGroup,), {"lazy": dict(commands)})
