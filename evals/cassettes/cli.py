"""`converse cassettes check`: stale or unsafe cassettes, found from the files alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pipeline.cli.common import console, handles_errors
from pipeline.cli.exits import EXIT_CHECK
from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from evals.cassettes.check import CassetteStatus

# The checks (PyYAML, the Claude provider's settings, the templates) load when the command runs.

cassettes_app = typer.Typer(help="Check the recorded model calls.", no_args_is_help=True)


def _line(status: CassetteStatus) -> list[str]:
    from evals.cassettes.stale import relative

    kind = "synthetic" if status.synthetic else "real"
    if status.ok:
        return [f"ok     {relative(status.path)} ({kind}; {', '.join(status.prompts)})"]
    lines = [
        f"STALE  {relative(status.path)} ({kind})"
        if status.stale
        else f"BAD    {relative(status.path)} ({kind})"
    ]
    lines += [f"       {reason}" for reason in (*status.stale, *status.problems)]
    lines += [f"       holds {secret} — scrub it and re-record" for secret in status.secrets]
    if status.stale and status.rerecord:
        lines.append(f"       re-record: {status.rerecord}")
    return lines


@cassettes_app.command("check")
@handles_errors
def cassettes_check(
    directory: Path | None = typer.Option(
        None, "--dir", help="Cassettes to check (default: fixtures/cassettes)."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List fresh cassettes too."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """List cassettes whose prompts changed since recording (exit 1 if any), with no network."""
    from evals.cassettes.check import check_cassettes
    from evals.cassettes.config import cassettes_dir
    from evals.cassettes.stale import relative
    from pipeline.prompting import default_library

    root = directory or cassettes_dir()
    if not root.is_dir():  # checking nothing must not read as "every cassette is fresh"
        raise ConverseError(
            f"no cassettes folder at {root}",
            "pass --dir with the folder the cassettes are in (default: fixtures/cassettes)",
        )
    statuses = check_cassettes(root, default_library())
    bad = [s for s in statuses if not s.ok]
    if as_json:
        payload = {
            "checked": len(statuses),
            "stale": [
                {
                    "path": relative(s.path),
                    "synthetic": s.synthetic,
                    "reasons": [*s.stale, *s.problems],
                    "secrets": list(s.secrets),
                    "rerecord": s.rerecord,
                }
                for s in bad
            ],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False))
    else:
        for status in statuses:
            if verbose or not status.ok:
                for line in _line(status):
                    console.print(line, markup=False, highlight=False, soft_wrap=True)
        console.print(
            f"{len(statuses)} cassettes under {relative(root)}: "
            f"{len(statuses) - len(bad)} fresh, {len(bad)} stale or unsafe",
            highlight=False,
        )
    if bad:
        raise typer.Exit(EXIT_CHECK)
