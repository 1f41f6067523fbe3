"""OpenAI-compatible settings: server, model, key, token limits, timeout and retries.

Read from options (`--provider-option openai-compatible.KEY=VALUE`), then the environment. No
SDK is imported here. The key is optional (local servers ignore it) and never printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import ConverseError
from pipeline.providers.settings import layered

PROVIDER = "openai-compatible"

# Each setting and the environment variable that sets it; options override both.
ENV_VARS: dict[str, str] = {
    "base_url": "CONVERSE_OPENAI_BASE_URL",
    "per_endpoint_concurrency": "CONVERSE_OPENAI_PER_ENDPOINT_CONCURRENCY",
    "model": "CONVERSE_OPENAI_MODEL",
    "api_key": "OPENAI_API_KEY",
    "classifier_max_tokens": "CONVERSE_OPENAI_CLASSIFIER_MAX_TOKENS",
    "responder_max_tokens": "CONVERSE_OPENAI_RESPONDER_MAX_TOKENS",
    "timeout": "CONVERSE_OPENAI_TIMEOUT",
    "max_retries": "CONVERSE_OPENAI_MAX_RETRIES",
}

# Values given as options of the `converse` command itself (`--openai-base-url`,
# `--openai-model`, see pipeline/cli/claude.py); they sit between the environment and the
# options a caller passes.
_command_options: dict[str, Any] = {}


def set_command_options(**values: Any) -> None:
    """Replace the command-line settings (None values are left out)."""
    _command_options.clear()
    _command_options.update({k: v for k, v in values.items() if v is not None})


# Sent when no key is set: the SDK wants one, and local servers accept any.
NO_KEY = "no-key"


@dataclass(frozen=True)
class OpenAISettings:
    """How the providers call a Chat Completions server."""

    # One server, or several separated by commas (calls are spread over them: endpoints.py).
    base_url: str = ""
    # Calls in flight at most on each server; 0: no bound.
    per_endpoint_concurrency: int = 0
    model: str = ""
    classifier_max_tokens: int = 512
    responder_max_tokens: int = 1024
    timeout: float = 60.0
    max_retries: int = 2
    # Never printed: the repr leaves it out, so settings can be logged safely.
    api_key: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> OpenAISettings:
        """Defaults < environment < command line < explicit options (None means not given).

        base_url and model are required: a missing one is a one-line usage error naming its
        variable and options.
        """
        env = os.environ if environ is None else environ
        settings = layered(
            cls,
            env_vars=ENV_VARS,
            environ=env,
            command_options=_command_options,
            overrides=overrides,
            label=PROVIDER,
            strip_text=True,
        )
        for name in ("base_url", "model"):
            if not str(getattr(settings, name)).strip():
                raise ConverseError(
                    f"the {PROVIDER} provider needs a {name.replace('_', ' ')}: set "
                    f"{ENV_VARS[name]}, --openai-{name.replace('_', '-')} or --provider-option "
                    f"{PROVIDER}.{name}=...",
                    "e.g. CONVERSE_OPENAI_BASE_URL=http://localhost:11434/v1 "
                    "CONVERSE_OPENAI_MODEL=qwen2.5:7b-instruct",
                )
        return settings
