"""What the harness's commands share: consoles, and the CLI's one error translator."""

from __future__ import annotations

import sys

from rich.console import Console

from pipeline.cli.common import handles_errors
from pipeline.cli.exits import EXIT_CHECK, EXIT_INTERRUPTED, EXIT_USAGE

# A failed gate is a check that says no (pipeline/cli/exits.py has the whole table).
EXIT_GATE = EXIT_CHECK


def stdout() -> Console:
    """A console on the current stdout (wide tables when it is a log, not a terminal)."""
    return Console(width=None if sys.stdout.isatty() else 160, emoji=False)


def stderr() -> Console:
    """A console on the current stderr."""
    return Console(stderr=True, width=None if sys.stderr.isatty() else 160, emoji=False)


__all__ = ["EXIT_GATE", "EXIT_INTERRUPTED", "EXIT_USAGE", "handles_errors", "stderr", "stdout"]
