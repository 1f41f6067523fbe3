"""`converse export promptfoo`: hand a suite to promptfoo."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from evals.commands.common import handles_errors, stdout
from pipeline.cli.common import default_script, shown
from pipeline.errors import ConverseError
from pipeline.providers import PROVIDER_NAMES

export_app = typer.Typer(help="Export suites to other eval tools.", no_args_is_help=True)


@export_app.command("promptfoo")
@handles_errors
def promptfoo_command(
    suite: str = typer.Option(..., "--suite", "-s", help="Suite name or path."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write promptfooconfig.yaml into."),
    provider: str = typer.Option(
        "local", "--provider", help=f"One of {', '.join(PROVIDER_NAMES)}."
    ),
    prompt: list[str] = typer.Option(
        [], "--prompt", help="FAMILY=VERSION; repeat for a side-by-side."
    ),
    script: Path | None = typer.Option(None, "--script", help="Fixture of the scripted provider."),
    provider_option: list[str] = typer.Option(
        [],
        "--provider-option",
        help="PROVIDER.KEY=VALUE for the provider's constructor, e.g. local-llm.model=NAME.",
    ),
    python: str | None = typer.Option(
        None,
        "--python",
        help="The Python promptfoo should start (default: its own; converse on PATH answers "
        "when that Python cannot import converse-harness).",
    ),
) -> None:
    """Write a promptfoo config: our pipeline as a Python provider, the suite as tests."""
    from evals.dataset import load_suites
    from evals.export import export_promptfoo
    from evals.runner import parse_prompt_options
    from evals.runner.providers import parse_provider_options
    from pipeline.providers import check_prompt_families

    suites = load_suites([suite])
    if len(suites) != 1:
        raise ConverseError(f"{suite!r} names {len(suites)} suites", "export one suite at a time")
    variants = parse_prompt_options(prompt)
    # an unknown provider, or --prompt for a family it does not read, before anything is written
    check_prompt_families(provider, {family for variant in variants for family in variant})
    options = parse_provider_options(provider_option)
    if provider == "scripted" and script is None:
        script = default_script()
    path = export_promptfoo(
        suites[0],
        out,
        provider=provider,
        variants=variants,
        script=script,
        python=python,
        options=options.get(provider, {}),
    )
    stdout().print(
        f"wrote {shown(path)} ({len(suites[0].cases)} tests)", highlight=False, soft_wrap=True
    )
    stdout().print(
        f"run it: cd {shown(out)} && npx promptfoo@0.121.20 eval", highlight=False, soft_wrap=True
    )


@export_app.command("promptfoo-worker", hidden=True)
def promptfoo_worker() -> None:
    """Answer the exported provider's requests, one JSON line each, on stdin and stdout."""
    from evals.export.bridge import serve

    answers = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not break the JSON lines
    try:
        serve(sys.stdin, answers)
    finally:
        sys.stdout = answers
