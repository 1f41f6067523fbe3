"""Commands that are imported only when they run, so `converse --help` starts at once.

A command's module may pull in SQLAlchemy, the local model or the anthropic SDK; listing the
commands needs none of that, so each is named here with the one line `--help` shows, and its
module is imported when the command is actually resolved.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer import _click as click  # Typer vendors click; its groups take these classes
from typer.core import TyperCommand, TyperGroup


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
        return command


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

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command; a placeholder while help is being listed, else the real one."""
        command = self.commands.get(cmd_name)
        if isinstance(command, _Placeholder) and not self._listing:
            command = self.commands[cmd_name] = self.lazy[cmd_name].load(cmd_name)
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Help that lists every command without importing any of them (nor, for a page that
        needs nothing else, Typer's Rich help module: pipeline/cli/quick_help.py)."""
        from pipeline.cli import quick_help

        self._listing = True
        try:
            if quick_help.drawable(self, ctx):
                quick_help.draw(self, ctx, self._listed(ctx))
            else:
                super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _listed(self, ctx: click.Context) -> list[click.Command]:
        found = (self.get_command(ctx, name) for name in self.list_commands(ctx))
        return [command for command in found if command is not None and not command.hidden]


def lazy_group(commands: dict[str, LazyCommand]) -> type[LazyGroup]:
    """A LazyGroup class for these commands (Typer builds the group from a class)."""
    return type("ConverseGroup", (LazyGroup,), {"lazy": dict(commands)})
