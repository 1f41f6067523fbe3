"""OpenAI-compatible settings: server, model, key, token limits, timeout and retries.

Read from options (`--provider-option openai-compatible.KEY=VALUE`), then the environment. No
SDK is imported here. The key is optional (local servers ignore it) and never printed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from pipeline.errors import ConverseError
from pipeline.providers.command_options import openai_options, replace_options
from pipeline.providers.settings import Count, ProviderSettings, Seconds

PROVIDER = "openai-compatible"

# Values given as options of the `converse` command itself (`--openai-base-url`,
# `--openai-model`, see pipeline/cli/claude.py); they sit between the environment and the
# options a caller passes.
_command_options: dict[str, Any] = openai_options


def set_command_options(**values: Any) -> None:
    """Replace the command-line settings (None values are left out)."""
    replace_options(_command_options, **values)


# Sent when no key is set: the SDK wants one, and local servers accept any.
NO_KEY = "no-key"


class OpenAISettings(ProviderSettings):
    """How the providers call a Chat Completions server (variables CONVERSE_OPENAI_*, and the
    SDK's own OPENAI_API_KEY)."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_OPENAI_", str_strip_whitespace=True)
    label: ClassVar[str] = PROVIDER

    # One server, or several separated by commas (calls are spread over them: endpoints.py).
    base_url: str = ""
    # Calls in flight at most on each server; 0: no bound.
    per_endpoint_concurrency: Count = 0
    model: str = ""
    classifier_max_tokens: Count = 512
    responder_max_tokens: Count = 1024
    timeout: Seconds = 60.0
    max_retries: Count = 2
    # Never printed: the repr leaves it out, so settings can be logged safely.
    api_key: str | None = Field(None, validation_alias="OPENAI_API_KEY", repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> OpenAISettings:
        """Defaults < environment < command line < explicit options (None means not given).

        base_url and model are required: a missing one is a one-line usage error naming its
        variable and options.
        """
        settings = cls.read(environ, _command_options, overrides)
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


# Each setting and the environment variable that sets it; options override both.
ENV_VARS: dict[str, str] = OpenAISettings.env_vars()
