"""The harness's Typer commands (thin: each calls into dataset, runner, report or export).

Each name is imported from its module on first use, so one command's module (evals/cli.py
names each) is imported without the others' stacks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from evals.commands.eval import eval_command
    from evals.commands.export import export_app
    from evals.commands.report import report_command, review_command

_HOMES = {
    "eval_command": ".eval",
    "export_app": ".export",
    "report_command": ".report",
    "review_command": ".report",
}
__all__ = ["eval_command", "export_app", "report_command", "review_command"]

__getattr__ = lazy_exports(__name__, _HOMES)
