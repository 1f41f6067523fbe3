"""`converse suites schema`: the JSON Schema of the suite file format, for editors and CI."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from evals.commands.common import handles_errors, stdout
from pipeline.cli.common import shown
from pipeline.errors import ConverseError

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
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
    except OSError as exc:
        raise ConverseError(
            f"cannot write the schema to {out}: {exc.strerror or exc}", "pass a writable path"
        ) from exc
    stdout().print(f"schema: {shown(out)}", highlight=False, soft_wrap=True)
