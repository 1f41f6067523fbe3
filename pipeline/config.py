"""Settings read from the environment, with the documented defaults."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DB_URL = "sqlite:///./.converse/converse.db"
MAX_MESSAGE_CHARS = 8_000
MEMORY_BUDGET_CHARS = 2_000
# A guard, not a window: compaction bounds the history a turn carries (pipeline/compaction.py);
# this only caps it if compaction cannot keep up (a summarizer failing turn after turn).
HISTORY_CAP = 400
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    """`CONVERSE_DB_URL`, or a SQLite file under ./.converse/."""
    return os.environ.get("CONVERSE_DB_URL") or DEFAULT_DB_URL


def prompts_dir() -> Path:
    """Where the versioned templates live (`CONVERSE_PROMPTS_DIR` overrides)."""
    return Path(os.environ.get("CONVERSE_PROMPTS_DIR") or PROJECT_ROOT / "prompts")


def fixtures_dir() -> Path:
    """Where fixtures live (`CONVERSE_FIXTURES_DIR` overrides)."""
    return Path(os.environ.get("CONVERSE_FIXTURES_DIR") or PROJECT_ROOT / "fixtures")
