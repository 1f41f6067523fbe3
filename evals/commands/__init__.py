"""The harness's Typer commands (thin: each calls into dataset, runner, report or export)."""

from evals.commands.eval import eval_command
from evals.commands.export import export_app
from evals.commands.report import report_command, review_command

__all__ = ["eval_command", "export_app", "report_command", "review_command"]
