"""Settings of the eval harness, read like the pipeline's (pipeline/settings.py): a
pydantic-settings class, checked when read, listed in docs/settings.md."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.config import PROJECT_ROOT
from pipeline.settings import checked_settings


class EvalSettings(BaseSettings):
    """CONVERSE_* settings of the harness."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_", extra="ignore", env_ignore_empty=True)

    # Where suites named without a path are found.
    suites_dir: Path = PROJECT_ROOT / "evals" / "suites"
    # Where runs and release reports go; None: reports/ of the project (evals/reports_path.py).
    reports_dir: Path | None = None
    # Who reviews (`converse review`, `converse view`); None: the login name.
    reviewer: str | None = None


def eval_settings() -> EvalSettings:
    """The harness's CONVERSE_* settings now in the environment, or a one-line error."""
    return checked_settings(EvalSettings, "CONVERSE_")


class RunStoreSettings(BaseSettings):
    """Where runs are recorded; apart from EvalSettings because here an empty value means
    something (no run store), where there it counts as unset."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_", extra="ignore")

    # None: runs.sqlite in the reports folder; `off`, `none` or empty: no run store.
    runs_url: str | None = None


def run_store_settings() -> RunStoreSettings:
    """CONVERSE_RUNS_URL now in the environment."""
    return checked_settings(RunStoreSettings, "CONVERSE_")
