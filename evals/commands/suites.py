"""`converse suites schema`: the JSON Schema of the suite file format, for editors and CI."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from evals.commands.common import handles_errors, stdout
from pipeline.cli.common import shown
from pipeline.files import write_output

suites_app = typer.Typer(help="The suite file format: its JSON Schema.", no_args_is_help=True)


@suites_app.command("schema")
@handles_errors
def schema_command(
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Write the schema here (default: print it on stdout)."
    ),
) -> None:
    """Print (or write) the JSON Schema of suite files, generated from the suite models."""
    from evals.dataset.schema import schema_text

    text = schema_text()
    if out is None:
        sys.stdout.write(text)
        return
    write_output(out, text, "schema")
    stdout().print(f"schema: {shown(out)}", highlight=False, soft_wrap=True)
