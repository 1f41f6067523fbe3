"""Claude settings: models, token limits, timeout and retries, from options or the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import ConverseError
from pipeline.providers.claude.models import DEFAULT_CLASSIFIER_MODEL, DEFAULT_RESPONDER_MODEL
from pipeline.providers.settings import layered

SHAPES = ("auto", "forced_tool", "structured_output")
# A rate-limited call waits as the server asks and tries again; with the waits capped at 60 s,
# six retries outlast a minute's limit.
RATE_LIMIT_RETRIES = 6

# Each setting and the environment variable that sets it; CLI options override both.
ENV_VARS: dict[str, str] = {
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


# Values given as options of the `converse` command itself (see pipeline/cli/claude.py); they
# sit between the environment and the options a caller passes.
_command_options: dict[str, Any] = {}


def set_command_options(**values: Any) -> None:
    """Replace the command-line settings (None values are left out)."""
    _command_options.clear()
    _command_options.update({k: v for k, v in values.items() if v is not None})


@dataclass(frozen=True)
class ClaudeSettings:
    """How the Claude providers call the Messages API."""

    classifier_model: str = DEFAULT_CLASSIFIER_MODEL
    responder_model: str = DEFAULT_RESPONDER_MODEL
    classifier_max_tokens: int = 512
    responder_max_tokens: int = 1024
    timeout: float = 30.0
    max_retries: int = 2
    # auto: from the model's row in pipeline/providers/claude/models.py; or forced_tool /
    # structured_output for a server or model the table does not know.
    classifier_shape: str = "auto"
    # Calls started per minute, across every thread of the process; 0: no limit.
    requests_per_minute: int = 0
    # Retries of a 429 or 529 answer; None: at least RATE_LIMIT_RETRIES when retries are on.
    rate_limit_retries: int | None = None
    # Pace and concurrency follow the rate-limit headers and 429/529 answers (adaptive.py).
    adaptive_limits: bool = True
    base_url: str | None = None
    # Never printed: the repr leaves it out, so settings can be logged safely.
    api_key: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ClaudeSettings:
        """Defaults < environment < command line < explicit overrides (None means not given).

        `model` sets both models unless one is given on its own.
        """
        env = os.environ if environ is None else environ
        model = overrides.pop("model", None)  # shorthand: one model for both roles
        if model is not None:
            overrides.setdefault("classifier_model", model)
            overrides.setdefault("responder_model", model)
        settings = layered(
            cls,
            env_vars=ENV_VARS,
            environ=env,
            command_options=_command_options,
            overrides=overrides,
            label="Claude",
        )
        if settings.classifier_shape not in SHAPES:
            raise ConverseError(
                f"the Claude classifier shape must be one of {', '.join(SHAPES)}, not "
                f"{settings.classifier_shape!r}",
                "fix CONVERSE_CLAUDE_CLASSIFIER_SHAPE or the classifier_shape option",
            )
        return settings

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
