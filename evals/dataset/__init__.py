"""Suites: the YAML contract, loading and validation.

Each name is imported from its module on first use: a module below is imported without
every case model (pydantic) and the suite loader."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
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

_HOMES = {
    "CASE_MODELS": ".cases",
    "Case": ".cases",
    "ConversationCase": ".conversation",
    "EraseTurn": ".conversation",
    "MessageTurn": ".conversation",
    "Suite": ".load",
    "SuiteError": ".load",
    "case_hash": ".load",
    "load_suite": ".load",
    "load_suites": ".load",
    "resolve_suite": ".load",
    "suites_dir": ".load",
    "TARGETS": ".models",
    "ClassifyCase": ".models",
    "ForgetCase": ".models",
    "Gate": ".models",
    "HistoryEntry": ".models",
    "Memory": ".models",
    "MemoryBlockCase": ".models",
    "Target": ".models",
    "TextCheck": ".models",
    "SampleInfo": ".sample",
    "sample_suite": ".sample",
}
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

__getattr__ = lazy_exports(__name__, _HOMES)
