"""`converse record`: its options; the recording itself (evals/record.py: the runner, the
cassette machinery, the anthropic SDK) is imported when the command runs."""

from __future__ import annotations

from pathlib import Path

import typer

from pipeline.cli.common import handles_errors


@handles_errors
def record_command(
    suite: str | None = typer.Option(
        None, "--suite", help="A suite name under evals/suites, or a path."
    ),
    all_suites: bool = typer.Option(
        False, "--all", help="Every suite under evals/suites that makes model calls."
    ),
    synthetic: Path | None = typer.Option(
        None,
        "--synthetic",
        help="Answers file for the loopback server: record synthetic cassettes, no key needed.",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Cassettes root (default: fixtures/cassettes)."
    ),
    prompt: list[str] = typer.Option(
        [], "--prompt", help="Record a prompt version: FAMILY=VERSION."
    ),
) -> None:
    """Record a suite's Claude calls to a cassette (real API, or --synthetic)."""
    from evals.record import record

    record(suite, all_suites, synthetic, out, prompt)
