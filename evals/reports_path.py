"""Where runs and release reports go: one rule for the runner and the viewer, importable
without loading either."""

from __future__ import annotations

from pathlib import Path

from pipeline.config import PROJECT_ROOT


def reports_dir() -> Path:
    """Where runs and release reports go (`CONVERSE_REPORTS_DIR` overrides)."""
    from evals.settings import eval_settings  # pydantic-settings: when a report is written

    override = eval_settings().reports_dir
    if override is not None:
        return override
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / "reports"
    return Path.cwd() / "reports"
