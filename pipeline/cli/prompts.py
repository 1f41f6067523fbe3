"""`converse prompts ...`: list, show and diff the versioned templates."""

from __future__ import annotations

import difflib

import typer
from rich.table import Table

from pipeline.cli.common import console, handles_errors
from pipeline.errors import PromptError

# The template library and prompt assembly (Jinja, the store's models) load when a command
# runs, not for its --help.

prompts_app = typer.Typer(help="List, show and diff the prompt templates.", no_args_is_help=True)

# Families that render without a turn's data, and the sample values they get.
_SAMPLES: dict[str, dict[str, object]] = {
    "persona": {"companion_name": "Sage", "operator_name": "Ana"},
    "cross_promotion": {},
}


@prompts_app.command("list")
@handles_errors
def prompts_list() -> None:
    """Every family, its versions, the active one and its sha256."""
    from pipeline.prompting import default_library

    library = default_library()
    active = library.active()
    table = Table("family", "versions", "active", "sha256", title_justify="left")
    for family, versions in sorted(library.families().items()):
        live = active.get(family)
        sha = library.source(family, live)[1].sha256[:12] if live else ""
        table.add_row(family, ", ".join(versions), live or "-", sha)
    console.print(table)


@prompts_app.command("show")
@handles_errors
def prompts_show(
    family: str = typer.Argument(
        ..., help="e.g. classifier, persona, instructions/forget_about_me"
    ),
    version: str | None = typer.Argument(None, help="Default: the active version."),
    render: bool = typer.Option(
        False, "--render", help="Print the rendered text (classifier, persona, cross_promotion)."
    ),
    project: str | None = typer.Option(None, "--project", help="Project name for --render."),
    tokens: bool = typer.Option(
        False,
        "--tokens",
        help="Print the cached prefix's length beside each model's minimum cacheable length.",
    ),
) -> None:
    """Print a template's source (or, with --render, the text a model gets)."""
    from pipeline.assemble import classifier_prompt
    from pipeline.prompting import default_library

    library = default_library()
    source, ref = library.source(family, version)
    label = "active" if library.active().get(family) == ref.version else "not active"
    console.print(
        f"# {ref.family}/{ref.version}  sha256 {ref.sha256}  ({label})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    if tokens:
        from pipeline.cli.prompt_tokens import Prefix, show_tokens

        if family == "classifier":
            from pipeline.providers.claude.classifier import tool_definition
            from pipeline.providers.claude.wire import classifier_system

            system = classifier_prompt(default_library({family: ref.version}), project_name=project)
            # The cached block: the system prompt before its per-turn CONVERSATION section.
            cached = str(classifier_system(system.text)[0]["text"])
            prefix = Prefix(
                f"{ref.family}/{ref.version} before its CONVERSATION section",
                cached,
                (dict(tool_definition()),),
                role="classifier",
            )
        elif family in _SAMPLES:
            rendered = library.render(family, ref.version, **_SAMPLES[family]).text
            prefix = Prefix(f"{ref.family}/{ref.version} alone, sample values", rendered)
        else:
            raise PromptError(
                f"{family} needs a turn's data to render, so its tokens cannot be counted here",
                "try classifier, persona or cross_promotion",
            )
        show_tokens(prefix)
        return
    if not render:
        console.print(source.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
        return
    if family == "classifier":
        versioned = default_library({family: ref.version})
        text = classifier_prompt(versioned, project_name=project).text
    elif family in _SAMPLES:
        text = library.render(family, ref.version, **_SAMPLES[family]).text
    else:
        raise PromptError(
            f"{family} needs a turn's data to render",
            "see its snapshot in tests/prompts, or drop --render to read the source",
        )
    console.print(text, markup=False, highlight=False, soft_wrap=True)


@prompts_app.command("diff")
@handles_errors
def prompts_diff(
    family: str = typer.Argument(..., help="The prompt family."),
    old: str = typer.Argument(..., help="The older version, e.g. v1."),
    new: str = typer.Argument(..., help="The newer version, e.g. v2."),
) -> None:
    """A unified diff between two versions of a family."""
    from pipeline.prompting import default_library

    library = default_library()
    before, old_ref = library.source(family, old)
    after, new_ref = library.source(family, new)
    lines = list(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"{family}/{old_ref.version}",
            tofile=f"{family}/{new_ref.version}",
        )
    )
    if not lines:
        console.print(f"{family}/{old} and {family}/{new} are identical.", highlight=False)
        return
    console.print("".join(lines).rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
