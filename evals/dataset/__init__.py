"""Suites: the YAML contract, loading and validation."""

from evals.dataset.load import (
    Suite,
    SuiteError,
    case_hash,
    load_suite,
    load_suites,
    resolve_suite,
    suites_dir,
)
from evals.dataset.models import (
    TARGETS,
    Case,
    ClassifyCase,
    ConverseCase,
    ForgetCase,
    Gate,
    HistoryEntry,
    Memory,
    MemoryBlockCase,
    Target,
    TextCheck,
)

__all__ = [
    "TARGETS",
    "Case",
    "ClassifyCase",
    "ConverseCase",
    "ForgetCase",
    "Gate",
    "HistoryEntry",
    "Memory",
    "MemoryBlockCase",
    "Suite",
    "SuiteError",
    "Target",
    "TextCheck",
    "case_hash",
    "load_suite",
    "load_suites",
    "resolve_suite",
    "suites_dir",
]
