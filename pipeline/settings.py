"""Settings of the conversation layer, read from CONVERSE_* environment variables and checked.

Every setting of the project is read one way: a pydantic-settings class, through
`checked_settings`, whose bad value is the one-line error `bad_setting` words (docs/settings.md
is the one table of names, defaults and meanings).

Ranges come from issue 12 and specification 001: working memory lives 1–365 days (default 14)
within a budget of 100–4,000 tokens (default 1,000); a value outside its range is a one-line
error naming the variable and the range, never a silent clamp.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Literal, TypeVar

from pydantic import Field, FilePath, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.errors import InvalidMessage


class Settings(BaseSettings):
    """Every setting, with its default and its allowed range."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_", extra="ignore")

    # Messages within this many seconds of each other, or sent during a turn, are one turn.
    coalesce_window_s: float = Field(1.5, ge=0, le=60)
    working_memory_ttl_days: int = Field(14, ge=1, le=365)
    working_memory_budget_tokens: int = Field(1_000, ge=100, le=4_000)
    # A turn this long after the person's previous one starts a new session.
    session_gap_hours: float = Field(6.0, gt=0, le=24 * 30)
    # At a session's start, ask the companion to acknowledge what was going on last time.
    proactive_greeting: bool = False
    # When the turns since the last compaction pass this estimate (4 characters a token),
    # all but the newest `compaction_keep_turns` are folded into a summary.
    compaction_threshold_tokens: int = Field(2_000, ge=500, le=200_000)
    compaction_keep_turns: int = Field(8, ge=2, le=100)
    compaction_variant: Literal["generic", "personal_assistant"] = "personal_assistant"
    # Custom instructions for the summary: text, or a user-editable file (COMPACTION.md).
    compaction_instructions: str = Field("", max_length=4_000)
    # checked when the settings are read, so a wrong path is refused before a turn is stored
    compaction_instructions_file: FilePath | None = None
    # Heartbeats (`converse heartbeat run-once`, pipeline/heartbeat.py): when not to reach out.
    heartbeat_quiet_start_hour: int = Field(22, ge=0, le=23)
    heartbeat_quiet_end_hour: int = Field(8, ge=0, le=23)
    heartbeat_utc_offset_hours: float = Field(0, ge=-12, le=14)  # the person's local time
    heartbeat_active_minutes: int = Field(30, ge=1, le=1_440)
    heartbeat_min_gap_hours: float = Field(4, ge=0, le=168)
    heartbeat_max_unanswered: int = Field(2, ge=1, le=20)
    # The consolidation job (`converse worker run-once`): at most this many memory pairs
    # compared per person per day.
    consolidation_pairs_per_day: int = Field(50, ge=1, le=1_000)
    # Multi-fact extraction (docs/memory.md): a remember-about-me turn longer than
    # `multi_fact_min_chars` is split into 1-5 candidate facts, at most 3 held per turn and
    # `multi_fact_daily_cap` per person in any 24 hours. Off by default.
    multi_fact_extraction: bool = False
    multi_fact_min_chars: int = Field(100, ge=40, le=8_000)
    multi_fact_daily_cap: int = Field(12, ge=2, le=500)
    # When the classifier is unsure (confidence below LOW_CONFIDENCE), look the message up in
    # memory once and show the responder what it finds (pipeline/on_demand_recall.py).
    on_demand_recall: bool = True
    # The lifecycle sweep sets aside unused assertions whose importance is below this.
    lifecycle_importance_threshold: float = Field(0.3, ge=0, le=1)

    def custom_compaction_instructions(self) -> str:
        """The custom instructions: the setting's text, else the file's (read each time, so
        an edit applies at the next compaction)."""
        if self.compaction_instructions.strip() or self.compaction_instructions_file is None:
            return self.compaction_instructions.strip()
        try:
            text = self.compaction_instructions_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidMessage(
                f"CONVERSE_COMPACTION_INSTRUCTIONS_FILE {str(self.compaction_instructions_file)!r}"
                f" cannot be read ({exc.__class__.__name__})",
                "point it at a readable UTF-8 text file, or unset it",
            ) from None
        return text.strip()[:4_000]


# Where a bad setting's error sends the person.
SETTINGS_DOC = "docs/settings.md lists every setting"


def bad_setting(name: str, value: object, why: str, help_: str = SETTINGS_DOC) -> InvalidMessage:
    """The one-line error of a setting with a bad value, the same for every setting: the
    variable (or option), the value, why it is refused, and what to do."""
    return InvalidMessage(f"{name}={value!r} is not valid: {why}", f"fix or unset {name} ({help_})")


def refused(
    exc: ValidationError, name_of: Callable[[str], str], help_: str = SETTINGS_DOC
) -> InvalidMessage:
    """`bad_setting` for the first value pydantic refused; `name_of` turns the field (or the
    variable, when the field has its own) into what the person set."""
    first = exc.errors()[0]
    where = str(first["loc"][0]) if first["loc"] else ""
    return bad_setting(name_of(where), first.get("input"), first["msg"].lower(), help_)


_S = TypeVar("_S", bound=BaseSettings)
_checked: dict[tuple[type[BaseSettings], tuple[str | None, ...]], BaseSettings] = {}


def checked_settings(kind: type[_S], prefix: str, help_: str = SETTINGS_DOC) -> _S:
    """`kind` read from the environment (variables `prefix` + field name), or an
    InvalidMessage naming the bad variable and `help_` (where the ranges are written).

    Validating costs more than a turn's search, so the result is kept per combination of the
    variables' values (a changed variable is checked afresh)."""
    environ = os.environ
    key = (kind, tuple(environ.get(name) for name in _variables(kind, prefix)))
    found = _checked.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    try:
        made = kind()
    except ValidationError as exc:
        names = setting_variables(kind, prefix)
        raise refused(exc, lambda where: names.get(where, where), help_) from None
    _checked[key] = made
    return made


def setting_variables(kind: type[BaseSettings], prefix: str) -> dict[str, str]:
    """Each field of `kind` and the environment variable that sets it: `prefix` and the
    field's name, or the field's own variable (its `validation_alias`)."""
    return {
        name: alias if isinstance(alias := info.validation_alias, str) else prefix + name.upper()
        for name, info in kind.model_fields.items()
    }


@cache
def _variables(kind: type[BaseSettings], prefix: str) -> tuple[str, ...]:
    # built once per kind: several settings are read on every turn
    return tuple(setting_variables(kind, prefix).values())


def settings() -> Settings:
    """The settings now in the environment, or an InvalidMessage naming the bad one."""
    return checked_settings(Settings, "CONVERSE_", SETTINGS_DOC)
