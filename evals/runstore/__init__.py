"""The run store: every run's metadata and rows in SQLite or PostgreSQL (CONVERSE_RUNS_URL)."""

from evals.runstore.recorder import RunRecorder, open_recorder
from evals.runstore.store import RunStore, runs_url

__all__ = ["RunRecorder", "RunStore", "open_recorder", "runs_url"]
