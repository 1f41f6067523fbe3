"""Claude settings: models, token limits, timeout and retries, from options or the environment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, get_args

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from pipeline.errors import ConverseError
from pipeline.providers.claude.models import DEFAULT_CLASSIFIER_MODEL, DEFAULT_RESPONDER_MODEL
from pipeline.providers.command_options import claude_options, replace_options
from pipeline.providers.settings import Count, ProviderSettings, Seconds

ShapeSetting = Literal["auto", "forced_tool", "structured_output"]
SHAPES: tuple[str, ...] = get_args(ShapeSetting)
# A rate-limited call waits as the server asks and tries again; with the waits capped at 60 s,
# six retries outlast a minute's limit.
RATE_LIMIT_RETRIES = 6

# Values given as options of the `converse` command itself (see pipeline/cli/claude.py); they
# sit between the environment and the options a caller passes.
_command_options: dict[str, Any] = claude_options


def set_command_options(**values: Any) -> None:
    """Replace the command-line settings (None values are left out)."""
    replace_options(_command_options, **values)


class ClaudeSettings(ProviderSettings):
    """How the Claude providers call the Messages API (variables CONVERSE_CLAUDE_*, and the
    SDK's own ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY)."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_CLAUDE_")
    label: ClassVar[str] = "Claude"

    classifier_model: str = DEFAULT_CLASSIFIER_MODEL
    responder_model: str = DEFAULT_RESPONDER_MODEL
    classifier_max_tokens: Count = 512
    responder_max_tokens: Count = 1024
    timeout: Seconds = 30.0
    max_retries: Count = 2
    # auto: from the model's row in pipeline/providers/claude/models.py; or forced_tool /
    # structured_output for a server or model the table does not know.
    classifier_shape: ShapeSetting = "auto"
    # Calls started per minute, across every thread of the process; 0: no limit.
    requests_per_minute: Count = Field(0, validation_alias="CONVERSE_CLAUDE_RPM")
    # Retries of a 429 or 529 answer; None: at least RATE_LIMIT_RETRIES when retries are on.
    rate_limit_retries: Count | None = None
    # Pace and concurrency follow the rate-limit headers and 429/529 answers (adaptive.py).
    adaptive_limits: bool = True
    base_url: str | None = Field(None, validation_alias="ANTHROPIC_BASE_URL")
    # Never printed: the repr leaves it out, so settings can be logged safely.
    api_key: str | None = Field(None, validation_alias="ANTHROPIC_API_KEY", repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ClaudeSettings:
        """Defaults < environment < command line < explicit overrides (None means not given).

        `model` sets both models unless one is given on its own.
        """
        model = overrides.pop("model", None)  # shorthand: one model for both roles
        if model is not None:
            overrides.setdefault("classifier_model", model)
            overrides.setdefault("responder_model", model)
        return cls.read(environ, _command_options, overrides)

    @property
    def limited_attempts(self) -> int:
        """How often a 429 or 529 answer is retried."""
        if self.rate_limit_retries is not None:
            return self.rate_limit_retries
        return max(self.max_retries, RATE_LIMIT_RETRIES) if self.max_retries else 0

    def require_key(self) -> str:
        """The API key, or an error that says how to provide one."""
        if not self.api_key:
            raise ConverseError(
                "ANTHROPIC_API_KEY is not set, so Claude cannot be called",
                "export ANTHROPIC_API_KEY=..., or choose --provider local",
            )
        return self.api_key


# Each setting and the environment variable that sets it; CLI options override both.
ENV_VARS: dict[str, str] = ClaudeSettings.env_vars()
