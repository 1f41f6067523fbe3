"""Suite targets as declarative specs: what each target reads, how it runs, what it offers.

One `TargetSpec` per target, read by the runner (where a suite runs, whether its answers are
cached, whether Claude replays it), by `converse record` and `converse export promptfoo`, by
the loader (`settings:`) and by the report (confusion matrices), instead of comparing the
target's name in each of those places. Adding a target: docs/evals.md, "Adding a suite target";
tests/evals/test_target_contract.py fails while a step is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from evals.dataset.cases import CASE_MODELS
from evals.dataset.models import TARGETS, CaseBase, Target
from evals.scorers import SCORERS, Scorer

# Where a suite's cases run: on every chosen provider, prompt variant and epoch; once on the
# pipeline's own code; on the pipeline and each provider lending an embedding model; or on
# the pipeline (the deterministic baseline) and each provider lending a structured generator.
RunsOn = Literal["providers", "pipeline", "pipeline+embedders", "pipeline+generators"]


@dataclass(frozen=True)
class TargetSpec:
    """What a suite target is and what the harness does with it."""

    name: Target
    case_model: type[CaseBase]
    scorer: Scorer
    runs_on: RunsOn
    # answers kept in the answer cache (a conversation depends on handler code, so never)
    cached: bool = False
    # prompt families whose text changes a cached answer (their hashes join the cache key)
    cache_families: tuple[str, ...] = ()
    # Claude replays the suite's recorded cassette, so a replayed run needs one
    replayed: bool = False
    # `converse record --suite` records its Claude calls
    recorded: bool = False
    # why `converse export promptfoo` refuses it (None: it exports)
    not_exportable: str | None = None
    # the field of `expected` and `got` a confusion matrix reads (None: no classes)
    confusion: str | None = None
    # the suite may set pipeline `settings:` for every case
    settings: bool = False
    # figures pooled over the cases, with gate bounds of their own (evals/runner/summary.py)
    pooled_metrics: bool = False
    # the docs/evals.md section that describes it
    docs: str = "Suite files"


def _spec(name: Target, runs_on: RunsOn, **declared: object) -> TargetSpec:
    return TargetSpec(name, CASE_MODELS[name], SCORERS[name], runs_on, **declared)  # type: ignore[arg-type]


_ONE_ANSWER = "promptfoo scores one answer per test"
TARGET_SPECS: dict[Target, TargetSpec] = {
    "classify": _spec(
        "classify",
        "providers",
        cached=True,
        cache_families=("classifier",),
        replayed=True,
        recorded=True,
        confusion="intent",
    ),
    "memory_block": _spec("memory_block", "pipeline"),
    "forget_match": _spec("forget_match", "pipeline+embedders", confusion="action"),
    "conversation": _spec(
        "conversation",
        "providers",
        replayed=True,
        recorded=True,
        not_exportable=f"{_ONE_ANSWER}, not a memory checked after every turn",
        settings=True,
        docs="Conversations",
    ),
    "compaction": _spec(
        "compaction",
        "providers",
        replayed=True,
        recorded=True,
        not_exportable=f"{_ONE_ANSWER}, not a summary written after a whole conversation is stored",
        docs="Compaction",
    ),
    "closure": _spec(
        "closure",
        "pipeline+generators",
        replayed=True,
        recorded=True,
        not_exportable="its F1 per entity kind is pooled over cases, which promptfoo's "
        "per-test verdicts cannot gate",
        pooled_metrics=True,
        docs="Conversation closure",
    ),
    "consolidation": _spec(
        "consolidation",
        "pipeline",
        not_exportable=f"{_ONE_ANSWER}, not the memory a consolidation pass leaves behind",
        docs="The default run",
    ),
    "writing": _spec(
        "writing",
        "providers",
        # a replayed run asks for its cassette, though `converse record` does not record it
        replayed=True,
        not_exportable="its pass rate is pooled over the items each write path makes, which "
        "promptfoo's per-test verdicts cannot gate",
        pooled_metrics=True,
        docs="Writing constraints",
    ),
}


def spec_of(target: str) -> TargetSpec:
    """The spec of a target (KeyError names an unknown one)."""
    return TARGET_SPECS[target]  # type: ignore[index]


def targets_where(flag: str) -> tuple[Target, ...]:
    """The targets whose spec sets a boolean flag (e.g. "recorded"), in TARGETS order."""
    return tuple(t for t in TARGETS if getattr(TARGET_SPECS[t], flag))
