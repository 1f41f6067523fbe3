"""The CONVERSE_* settings naming places (pipeline/config.py reads them), apart so that
pydantic-settings is imported only when one is read."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.places import DEFAULT_DB_URL, PROJECT_ROOT


class PathSettings(BaseSettings):
    """CONVERSE_* settings naming places; kept apart from the conversation settings so that a
    bad value there never stops a command that only reads the database."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_", extra="ignore", env_ignore_empty=True)

    db_url: str = DEFAULT_DB_URL
    prompts_dir: Path = PROJECT_ROOT / "prompts"
    fixtures_dir: Path = PROJECT_ROOT / "fixtures"
    # None: the categories file shipped with the package (pipeline/categories.yaml).
    categories_file: str | None = None
