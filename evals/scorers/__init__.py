"""Scorers: small, named, versioned functions that return evidence for their verdict."""

from evals.dataset.models import Target
from evals.scorers.base import Check, Score, Scorer, text_checks
from evals.scorers.classify import CLASSIFY
from evals.scorers.closure import CLOSURE
from evals.scorers.compaction import COMPACTION
from evals.scorers.consolidation import CONSOLIDATION
from evals.scorers.conversation import CONVERSATION
from evals.scorers.forget_match import FORGET_MATCH
from evals.scorers.memory_block import MEMORY_BLOCK
from evals.scorers.writing import WRITING

SCORERS: dict[Target, Scorer] = {
    "classify": CLASSIFY,
    "memory_block": MEMORY_BLOCK,
    "forget_match": FORGET_MATCH,
    "conversation": CONVERSATION,
    "compaction": COMPACTION,
    "closure": CLOSURE,
    "consolidation": CONSOLIDATION,
    "writing": WRITING,
}

__all__ = [
    "CLASSIFY",
    "CLOSURE",
    "COMPACTION",
    "CONSOLIDATION",
    "CONVERSATION",
    "FORGET_MATCH",
    "MEMORY_BLOCK",
    "SCORERS",
    "WRITING",
    "Check",
    "Score",
    "Scorer",
    "text_checks",
]
