"""Suites: the YAML contract, loading and validation."""

from evals.dataset.cases import CASE_MODELS, Case
from evals.dataset.conversation import ConversationCase, EraseTurn, MessageTurn
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
    ClassifyCase,
    ForgetCase,
    Gate,
    HistoryEntry,
    Memory,
    MemoryBlockCase,
    Target,
    TextCheck,
)
from evals.dataset.sample import SampleInfo, sample_suite

__all__ = [
    "CASE_MODELS",
    "TARGETS",
    "Case",
    "ClassifyCase",
    "ConversationCase",
    "EraseTurn",
    "ForgetCase",
    "Gate",
    "HistoryEntry",
    "Memory",
    "MemoryBlockCase",
    "MessageTurn",
    "SampleInfo",
    "Suite",
    "SuiteError",
    "Target",
    "TextCheck",
    "case_hash",
    "load_suite",
    "load_suites",
    "resolve_suite",
    "sample_suite",
    "suites_dir",
]
