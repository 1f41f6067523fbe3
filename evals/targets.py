"""Suite targets as declarative specs: what each target reads, how it runs, what it offers.

One `TargetSpec` per target, read by the runner (where a suite runs, whether its answers are
cached, whether Claude replays it, how its rows' prompts are labelled), by `converse record`
and `converse export promptfoo`, by the loader (`settings:`, `perturb:`), by the report and
`converse view` (confusion matrices, one-line descriptions, transcripts, sections of its own),
instead of comparing the target's name in each of those places. Adding a target:
docs/evals.md, "Adding a suite target"; tests/evals/test_target_contract.py fails while a step
is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from evals import lines
from evals.dataset.cases import CASE_MODELS
from evals.dataset.models import TARGETS, CaseBase, Target
from evals.scorers import SCORERS, Scorer, confidences

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
    # prompt families whose text makes its answer: their hashes join the cache key and
    # promptfoo's provider config, and only such a target is exported once per prompt variant
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
    # its cases carry what a person says, so a suite may `perturb:` their messages
    perturbed: bool = False
    # a row's prompt label (what tables group by) is the templates it used, plus every active
    # version of the families starting with one of these (cases choose among them: one label
    # for the suite) ...
    label_families: tuple[str, ...] = ()
    # ... or the whole active set, named by a digest (the templates a conversation renders
    # depend on its turns, so each case would otherwise be a group of its own)
    label_active_set: bool = False
    # a row's expected and got in one line, for the report's tables (evals/lines.py)
    expected_line: Callable[[Any], str] = lines.short
    got_line: Callable[[Mapping[str, Any]], str] = lines.short
    # rows are transcripts of turns: a failed one is shown turn by turn (the report's "Failed
    # conversations", `converse view`), not in the failures table nor as one sent prompt
    transcript: bool = False
    # the title of the report section of its own that shows its pooled figures (None: none)
    report_section: str | None = None
    # what `converse record` prints for each recorded case (None: the target is not recorded)
    recorded_line: Callable[[Mapping[str, Any]], str] | None = None
    # what its cases are called when some of them fail to record ("3 of 9 calls failed")
    case_noun: str = "cases"
    # the field of `got` promptfoo sees as the answer (None: the whole `got`, as JSON)
    export_answer: str | None = None
    # the classifier's confidence on each message its answer read, kept in the row as
    # `confidences` (evals/scorers/confidences.py; None: it reads no message) ...
    confidences: Callable[[Mapping[str, Any]], list[dict[str, Any]]] | None = None
    # ... and the check that says whether a message was read right where it has no gold
    # reading (None: only a gold reading says): the report's calibration
    read_check: str | None = None


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
        perturbed=True,
        expected_line=lines.classify_expected,
        got_line=lines.classify_got,
        recorded_line=lines.classify_recorded,
        case_noun="calls",
        confidences=confidences.one_message,
        read_check="intent",
    ),
    "memory_block": _spec(
        "memory_block", "pipeline", got_line=lines.memory_block_got, export_answer="block"
    ),
    "forget_match": _spec(
        "forget_match",
        "pipeline+embedders",
        confusion="action",
        perturbed=True,
        expected_line=lines.forget_line,
        got_line=lines.forget_line,
    ),
    "conversation": _spec(
        "conversation",
        "providers",
        replayed=True,
        recorded=True,
        not_exportable=f"{_ONE_ANSWER}, not a memory checked after every turn",
        settings=True,
        docs="Conversations",
        perturbed=True,
        label_active_set=True,
        expected_line=lines.conversation_expected,
        got_line=lines.conversation_got,
        transcript=True,
        recorded_line=lines.conversation_recorded,
        case_noun="conversations",
        confidences=confidences.message_turns,
    ),
    "compaction": _spec(
        "compaction",
        "providers",
        replayed=True,
        recorded=True,
        not_exportable=f"{_ONE_ANSWER}, not a summary written after a whole conversation is stored",
        docs="Compaction",
        label_families=("compaction/",),
        recorded_line=lines.compaction_recorded,
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
        report_section="Conversation closure",
        recorded_line=lines.closure_recorded,
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
        report_section="Writing constraints",
    ),
}


def spec_of(target: str) -> TargetSpec:
    """The spec of a target (KeyError names an unknown one)."""
    return TARGET_SPECS[target]  # type: ignore[index]


def targets_where(flag: str) -> tuple[Target, ...]:
    """The targets whose spec sets a boolean flag (e.g. "recorded"), in TARGETS order."""
    return tuple(t for t in TARGETS if getattr(TARGET_SPECS[t], flag))


def spec_if_known(target: str) -> TargetSpec | None:
    """The spec of a target, or None for a name no spec has (a row written by another
    version of the harness must still show)."""
    return TARGET_SPECS.get(cast(Target, target))


def is_transcript(target: str) -> bool:
    """Whether rows of the target are transcripts of turns (its spec's `transcript`)."""
    spec = spec_if_known(target)
    return spec is not None and spec.transcript


def in_section(target: str, title: str) -> bool:
    """Whether the target's figures are shown in the report section titled `title`."""
    spec = spec_if_known(target)
    return spec is not None and spec.report_section == title
