"""Fixed places: the project's root and the default database, named by pipeline/config.py and
by its settings class (pipeline/path_settings.py), which must not import each other."""

from __future__ import annotations

from pathlib import Path

DEFAULT_DB_URL = "sqlite:///./.converse/converse.db"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
