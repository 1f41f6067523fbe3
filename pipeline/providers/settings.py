"""Provider settings in layers: defaults < environment < `converse` options < caller options.

Claude, the OpenAI-compatible provider and local-llm each declare their settings as a
pydantic-settings class over `ProviderSettings` (the variable of each field: the class's
prefix and the field's name, or the field's own `validation_alias`). `ProviderSettings.read`
layers the options over the environment; a bad value anywhere is the one-line error every
setting gives (pipeline/settings.py, `bad_setting`), naming the variable or the option.

Building a class directly (`ClaudeSettings(timeout=5)`) reads no environment: the defaults and
the values given, so a test or a caller can hold exact settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Annotated, Any, ClassVar, Self

from pydantic import Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from pipeline.errors import ConverseError
from pipeline.settings import refused, setting_variables

# The number types of provider settings: a count may be 0 (no retries, no limit), a time not.
Count = Annotated[int, Field(ge=0)]
Seconds = Annotated[float, Field(gt=0)]

# The environment `read` is reading (None: a class built directly, which reads none).
_READING: ContextVar[Mapping[str, str] | None] = ContextVar("_READING", default=None)


class _Environment(EnvSettingsSource):
    """The variables of a mapping (the process's, or one a caller passes), each stripped; a
    blank one counts as unset."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {
            (name if self.case_sensitive else name.lower()): value.strip()
            for name, value in self._environ.items()
            if isinstance(value, str) and value.strip()
        }


class ProviderSettings(BaseSettings):
    """The base of every provider's settings: frozen, no unknown fields, and read through
    `read` in the layers above."""

    model_config = SettingsConfigDict(
        frozen=True,
        extra="forbid",
        # options arrive as text or numbers (`--provider-option`, suite YAML); a number given
        # for a text setting (a model named 7) is kept as its text
        coerce_numbers_to_str=True,
        validate_by_name=True,
        validate_by_alias=True,
    )
    # How the provider is named in an unknown option's error ("unknown Claude option ...").
    label: ClassVar[str] = "provider"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The values given first, then the environment being read (none when built directly)."""
        environ = _READING.get()
        if environ is None:
            return (init_settings,)
        return (init_settings, _Environment(settings_cls, environ))

    @classmethod
    def env_vars(cls) -> dict[str, str]:
        """Each field and the environment variable that sets it."""
        return setting_variables(cls, cls.model_config.get("env_prefix") or "")

    @classmethod
    def read(
        cls,
        environ: Mapping[str, str] | None,
        command_options: Mapping[str, Any],
        overrides: Mapping[str, Any],
    ) -> Self:
        """Defaults < `environ` (the process's when None) < `command_options` < `overrides`;
        None means not given. An unknown override or a bad value is a one-line error."""
        names = sorted(cls.model_fields)
        unknown = sorted(set(overrides) - set(names))
        if unknown:
            raise ConverseError(
                f"unknown {cls.label} option {unknown[0]!r}", f"options: {', '.join(names)}"
            )
        given = {k: v for k, v in {**command_options, **overrides}.items() if v is not None}
        variables = cls.env_vars()
        by_variable = {var: name for name, var in variables.items()}

        def named(where: str) -> str:
            field = by_variable.get(where, where)
            return f"option {field}" if field in given else variables.get(field, field)

        token = _READING.set(os.environ if environ is None else environ)
        try:
            return cls(**given)
        except ValidationError as exc:
            raise refused(exc, named) from None
        finally:
            _READING.reset(token)


class ChoiceSettings(ProviderSettings):
    """What picks the provider when a command names none (registry.default_provider)."""

    label: ClassVar[str] = "provider choice"

    provider: str = Field("", validation_alias="CONVERSE_PROVIDER")
    # Whether a Claude key is set; never printed.
    anthropic_api_key: str | None = Field(None, validation_alias="ANTHROPIC_API_KEY", repr=False)


def anthropic_key_set(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ANTHROPIC_API_KEY is set (to anything but blanks)."""
    return bool(ChoiceSettings.read(environ, {}, {}).anthropic_api_key)
