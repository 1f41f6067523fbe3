"""Where runs and release reports go: one rule for the runner and the viewer, importable
without loading either."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.config import PROJECT_ROOT


def reports_dir() -> Path:
    """Where runs and release reports go (`CONVERSE_REPORTS_DIR` overrides)."""
    override = os.environ.get("CONVERSE_REPORTS_DIR")
    if override:
        return Path(override)
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / "reports"
    return Path.cwd() / "reports"
