"""Options of the `converse` command itself: Claude and OpenAI-compatible settings for any
subcommand.

The environment variables of the same settings are read by the settings classes, not here, so a
bad value is the one-line error every setting gives (docs/settings.md); an option given here
wins over its variable."""

from __future__ import annotations

import typer

from pipeline.providers.command_options import CLAUDE_ENV_VARS as CLAUDE_VARS
from pipeline.providers.command_options import OPENAI_ENV_VARS as OPENAI_VARS
from pipeline.providers.command_options import claude_options as claude_given
from pipeline.providers.command_options import openai_options, replace_options


def claude_options(
    classifier_model: str | None = typer.Option(
        None,
        "--claude-classifier-model",
        help=f"Claude model that classifies (over {CLAUDE_VARS['classifier_model']}).",
    ),
    responder_model: str | None = typer.Option(
        None,
        "--claude-responder-model",
        help=f"Claude model that replies (over {CLAUDE_VARS['responder_model']}).",
    ),
    classifier_max_tokens: int | None = typer.Option(
        None,
        "--claude-classifier-max-tokens",
        help=f"The classifier's answer limit (over {CLAUDE_VARS['classifier_max_tokens']}).",
    ),
    responder_max_tokens: int | None = typer.Option(
        None,
        "--claude-responder-max-tokens",
        help=f"The reply's limit (over {CLAUDE_VARS['responder_max_tokens']}).",
    ),
    timeout: float | None = typer.Option(
        None, "--claude-timeout", help=f"Seconds per API call (over {CLAUDE_VARS['timeout']})."
    ),
    max_retries: int | None = typer.Option(
        None,
        "--claude-max-retries",
        help=f"Retries on 429, 5xx, 529 and timeouts (over {CLAUDE_VARS['max_retries']}).",
    ),
    requests_per_minute: int | None = typer.Option(
        None,
        "--claude-rpm",
        help="Claude calls started per minute, across threads (0: no limit; over "
        f"{CLAUDE_VARS['requests_per_minute']}).",
    ),
    classifier_shape: str | None = typer.Option(
        None,
        "--claude-classifier-shape",
        help="auto (from the model table), forced_tool or structured_output (over "
        f"{CLAUDE_VARS['classifier_shape']}).",
    ),
    openai_base_url: str | None = typer.Option(
        None,
        "--openai-base-url",
        help="Chat Completions server for --provider openai-compatible, e.g. "
        f"http://localhost:11434/v1 (over {OPENAI_VARS['base_url']}).",
    ),
    openai_model: str | None = typer.Option(
        None,
        "--openai-model",
        help=f"Model name for --provider openai-compatible (over {OPENAI_VARS['model']}).",
    ),
) -> None:
    """converse-harness: a memory-keeping companion and the harness around it."""
    replace_options(
        claude_given,
        classifier_model=classifier_model,
        responder_model=responder_model,
        classifier_max_tokens=classifier_max_tokens,
        responder_max_tokens=responder_max_tokens,
        timeout=timeout,
        requests_per_minute=requests_per_minute,
        classifier_shape=classifier_shape,
        max_retries=max_retries,
    )
    replace_options(openai_options, base_url=openai_base_url, model=openai_model)
