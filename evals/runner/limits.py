"""Bounds of a run that options state in their help: kept apart from the run metadata model
(evals/runner/meta.py, pydantic), so `converse eval --help` does not import it."""

from __future__ import annotations

MAX_EPOCHS = 100
MAX_CONCURRENCY = 64
