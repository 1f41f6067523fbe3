"""Settings read from the environment, with the documented defaults."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DB_URL = "sqlite:///./.converse/converse.db"
MAX_MESSAGE_CHARS = 8_000
MEMORY_BUDGET_CHARS = 2_000
HISTORY_TURNS = 12
# Messages a person sends within this many seconds of the previous one, or while a turn is
# being answered, are answered as one turn (pipeline/turn_queue.py; CONVERSE_COALESCE_WINDOW_S).
COALESCE_WINDOW_S = 1.5
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


def coalesce_window_s() -> float:
    """`CONVERSE_COALESCE_WINDOW_S` (0 to 60 seconds), else COALESCE_WINDOW_S."""
    raw = os.environ.get("CONVERSE_COALESCE_WINDOW_S")
    if raw is None or not raw.strip():
        return COALESCE_WINDOW_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        from pipeline.errors import InvalidMessage

        raise InvalidMessage(
            f"CONVERSE_COALESCE_WINDOW_S must be a number of seconds from 0 to 60, not {raw!r}",
            "unset it for the default (1.5)",
        )
    return value
