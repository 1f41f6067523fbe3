"""Where things are (the database, templates, fixtures, the categories file), read from the
environment like every other setting (pipeline/settings.py), and fixed limits."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.settings import checked_settings

DEFAULT_DB_URL = "sqlite:///./.converse/converse.db"
MAX_MESSAGE_CHARS = 8_000
MEMORY_BUDGET_CHARS = 2_000
# A guard, not a window: compaction bounds the history a turn carries (pipeline/compaction.py);
# this only caps it if compaction cannot keep up (a summarizer failing turn after turn).
HISTORY_CAP = 400
PROJECT_ROOT = Path(__file__).resolve().parent.parent


class PathSettings(BaseSettings):
    """CONVERSE_* settings naming places; kept apart from the conversation settings so that a
    bad value there never stops a command that only reads the database."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_", extra="ignore", env_ignore_empty=True)

    db_url: str = DEFAULT_DB_URL
    prompts_dir: Path = PROJECT_ROOT / "prompts"
    fixtures_dir: Path = PROJECT_ROOT / "fixtures"
    # None: the categories file shipped with the package (pipeline/categories.yaml).
    categories_file: str | None = None


def paths() -> PathSettings:
    """The CONVERSE_* places now in the environment."""
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
