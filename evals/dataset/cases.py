"""Which case model each suite target reads."""

from __future__ import annotations

from evals.dataset.closure import ClosureCase
from evals.dataset.compaction import CompactionCase
from evals.dataset.consolidation import ConsolidationCase
from evals.dataset.conversation import ConversationCase
from evals.dataset.models import CaseBase, ClassifyCase, ForgetCase, MemoryBlockCase, Target
from evals.dataset.writing import WritingCase

Case = (
    ClassifyCase
    | MemoryBlockCase
    | ForgetCase
    | ConversationCase
    | CompactionCase
    | ClosureCase
    | ConsolidationCase
    | WritingCase
)

CASE_MODELS: dict[Target, type[CaseBase]] = {
    "classify": ClassifyCase,
    "memory_block": MemoryBlockCase,
    "forget_match": ForgetCase,
    "conversation": ConversationCase,
    "compaction": CompactionCase,
    "closure": ClosureCase,
    "consolidation": ConsolidationCase,
    "writing": WritingCase,
}
