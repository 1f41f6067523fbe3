"""Options of the `converse` command itself: Claude and OpenAI-compatible settings for any
subcommand."""

from __future__ import annotations

import typer

from pipeline.providers.claude.settings import ENV_VARS, set_command_options
from pipeline.providers.openai_compat import settings as openai_settings


def claude_options(
    classifier_model: str | None = typer.Option(
        None,
        "--claude-classifier-model",
        envvar=ENV_VARS["classifier_model"],
        help="Claude model that classifies.",
    ),
    responder_model: str | None = typer.Option(
        None,
        "--claude-responder-model",
        envvar=ENV_VARS["responder_model"],
        help="Claude model that replies.",
    ),
    classifier_max_tokens: int | None = typer.Option(
        None, "--claude-classifier-max-tokens", envvar=ENV_VARS["classifier_max_tokens"]
    ),
    responder_max_tokens: int | None = typer.Option(
        None, "--claude-responder-max-tokens", envvar=ENV_VARS["responder_max_tokens"]
    ),
    timeout: float | None = typer.Option(
        None, "--claude-timeout", envvar=ENV_VARS["timeout"], help="Seconds per API call."
    ),
    max_retries: int | None = typer.Option(
        None,
        "--claude-max-retries",
        envvar=ENV_VARS["max_retries"],
        help="Retries on 429, 5xx, 529 and timeouts.",
    ),
    requests_per_minute: int | None = typer.Option(
        None,
        "--claude-rpm",
        envvar=ENV_VARS["requests_per_minute"],
        help="Claude calls started per minute, across threads (0: no limit).",
    ),
    classifier_shape: str | None = typer.Option(
        None,
        "--claude-classifier-shape",
        envvar=ENV_VARS["classifier_shape"],
        help="auto (from the model table), forced_tool or structured_output.",
    ),
    openai_base_url: str | None = typer.Option(
        None,
        "--openai-base-url",
        envvar=openai_settings.ENV_VARS["base_url"],
        help="Chat Completions server for --provider openai-compatible, e.g. "
        "http://localhost:11434/v1.",
    ),
    openai_model: str | None = typer.Option(
        None,
        "--openai-model",
        envvar=openai_settings.ENV_VARS["model"],
        help="Model name for --provider openai-compatible.",
    ),
) -> None:
    """converse-harness: a memory-keeping companion and the harness around it."""
    set_command_options(
        classifier_model=classifier_model,
        responder_model=responder_model,
        classifier_max_tokens=classifier_max_tokens,
        responder_max_tokens=responder_max_tokens,
        timeout=timeout,
        requests_per_minute=requests_per_minute,
        classifier_shape=classifier_shape,
        max_retries=max_retries,
    )
    openai_settings.set_command_options(base_url=openai_base_url, model=openai_model)
