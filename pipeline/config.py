"""Where things are (the database, templates, fixtures, the categories file), read from the
environment like every other setting (pipeline/settings.py), and fixed limits.

The settings class (pydantic-settings) is imported when a place is first read, so a command
that only names these constants, or prints its --help, does not load it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports
from pipeline.places import DEFAULT_DB_URL as DEFAULT_DB_URL
from pipeline.places import PROJECT_ROOT as PROJECT_ROOT

if TYPE_CHECKING:
    from pipeline.path_settings import PathSettings

MAX_MESSAGE_CHARS = 8_000
MEMORY_BUDGET_CHARS = 2_000
# A guard, not a window: compaction bounds the history a turn carries (pipeline/compaction.py);
# this only caps it if compaction cannot keep up (a summarizer failing turn after turn).
HISTORY_CAP = 400


def paths() -> PathSettings:
    """The CONVERSE_* places now in the environment."""
    from pipeline.path_settings import PathSettings
    from pipeline.settings import checked_settings

    return checked_settings(PathSettings, "CONVERSE_")


def database_url() -> str:
    """`CONVERSE_DB_URL`, or a SQLite file under ./.converse/."""
    return paths().db_url


def prompts_dir() -> Path:
    """Where the versioned templates live (`CONVERSE_PROMPTS_DIR` overrides)."""
    return paths().prompts_dir


def fixtures_dir() -> Path:
    """Where fixtures live (`CONVERSE_FIXTURES_DIR` overrides)."""
    return paths().fixtures_dir


__getattr__ = lazy_exports(__name__, {"PathSettings": "pipeline.path_settings"})
