"""Values given as options of the `converse` command itself (`--claude-*`, `--openai-*`,
pipeline/cli/claude.py), and the environment variables they stand over.

Kept apart from the settings classes, which import pydantic-settings: the root command's
options are parsed on every start, `--help` included, and start-up stays light (STYLE.md,
practice 13). tests/pipeline/test_command_options.py checks the names against the classes."""

from __future__ import annotations

from typing import Any

CLAUDE_ENV_VARS: dict[str, str] = {
    "classifier_model": "CONVERSE_CLAUDE_CLASSIFIER_MODEL",
    "responder_model": "CONVERSE_CLAUDE_RESPONDER_MODEL",
    "classifier_max_tokens": "CONVERSE_CLAUDE_CLASSIFIER_MAX_TOKENS",
    "responder_max_tokens": "CONVERSE_CLAUDE_RESPONDER_MAX_TOKENS",
    "timeout": "CONVERSE_CLAUDE_TIMEOUT",
    "max_retries": "CONVERSE_CLAUDE_MAX_RETRIES",
    "classifier_shape": "CONVERSE_CLAUDE_CLASSIFIER_SHAPE",
    "requests_per_minute": "CONVERSE_CLAUDE_RPM",
    "rate_limit_retries": "CONVERSE_CLAUDE_RATE_LIMIT_RETRIES",
    "adaptive_limits": "CONVERSE_CLAUDE_ADAPTIVE_LIMITS",
    "base_url": "ANTHROPIC_BASE_URL",
    "api_key": "ANTHROPIC_API_KEY",
}
OPENAI_ENV_VARS: dict[str, str] = {
    "base_url": "CONVERSE_OPENAI_BASE_URL",
    "per_endpoint_concurrency": "CONVERSE_OPENAI_PER_ENDPOINT_CONCURRENCY",
    "model": "CONVERSE_OPENAI_MODEL",
    "classifier_max_tokens": "CONVERSE_OPENAI_CLASSIFIER_MAX_TOKENS",
    "responder_max_tokens": "CONVERSE_OPENAI_RESPONDER_MAX_TOKENS",
    "timeout": "CONVERSE_OPENAI_TIMEOUT",
    "max_retries": "CONVERSE_OPENAI_MAX_RETRIES",
    "api_key": "OPENAI_API_KEY",
}

# The registry's provider names in its order, for `--provider` help: a command's help must not
# build the registry (pipeline/providers/registry.py), which imports the settings classes.
PROVIDER_NAMES = (
    "local",
    "local-reader",
    "claude",
    "scripted",
    "openai-compatible",
    "local-llm",
)

# They sit between the environment and the options a caller passes.
claude_options: dict[str, Any] = {}
openai_options: dict[str, Any] = {}


def replace_options(options: dict[str, Any], **values: Any) -> None:
    """Replace one provider's command-line settings (None values are left out)."""
    options.clear()
    options.update({k: v for k, v in values.items() if v is not None})
