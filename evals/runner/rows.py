"""What a result row records of one finished case (DESIGN.md, "Results and reports"): its
score, the prompts it was grouped by and used, tokens, cost and provenance."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from evals.dataset.cases import Case
from evals.dataset.closure import ClosureCase, OperatorTurn
from evals.dataset.compaction import CompactionCase
from evals.dataset.conversation import ConversationCase
from evals.runner.gitinfo import git_state
from evals.runner.gold import GOLD
from evals.runner.outcome import Outcome
from evals.runner.providers import Bound, variant_label
from evals.runner.results import redact_row
from evals.scorers import SCORERS
from evals.scorers.reading_case import DECISION, case_reading, failed_by
from evals.targets import spec_of
from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from evals.runner.engine import WorkItem


def _tokens(outcome: Outcome) -> dict[str, int]:
    u = outcome.usage
    return {
        "input": u.input_tokens,
        "output": u.output_tokens,
        "cache_read": u.cache_read_input_tokens,
        "cache_creation": u.cache_creation_input_tokens,
    }


def _said(operator: str | None, companion: str | None) -> list[str]:
    if operator is not None:
        return ["operator", operator]
    if companion is not None:
        return ["companion", companion]
    return ["compact", "(compaction runs here)"]


def case_input(case: Case) -> dict[str, Any]:
    """What the case gave the target, in brief (for reports; the suite file has it all)."""
    brief: dict[str, Any] = {}
    if isinstance(case, CompactionCase):
        brief["turns"] = sum(t.compact is None for t in case.turns)
        # what was summarised, so a reviewer reads the conversation beside the summary
        brief["conversation"] = [_said(t.operator, t.companion) for t in case.turns]
    if isinstance(case, ClosureCase):
        brief["turns"] = len(case.turns)
        brief["open_items"] = len(case.open_state)
        brief["destinations"] = case.destinations
        brief["conversation"] = [
            ["operator", t.operator] if isinstance(t, OperatorTurn) else ["companion", t.companion]
            for t in case.turns
        ]
        if case.open_state:
            brief["open_state"] = [f"{item.kind}: {item.line}" for item in case.open_state]
    if isinstance(case, ConversationCase):
        brief["turns"] = len(case.turns)
        if case.projects:
            brief["projects"] = case.projects
    for name in ("message", "project"):
        value = getattr(case, name, None)
        if value is not None:
            brief[name] = value
    if getattr(case, "history", None):
        brief["history_turns"] = len(getattr(case, "history", []))
    if getattr(case, "memories", None) is not None:
        brief["memories"] = len(getattr(case, "memories", []))
    return brief


def _prompt_label(item: WorkItem, bound: Bound, outcome: Outcome) -> dict[str, str]:
    """family -> version that a row is grouped by in every table.

    Which templates a conversation renders depends on the intents its turns hit, so it is
    labelled by the whole active set, named by a short digest of its family=version pairs
    (a table row stays readable; otherwise each case would be a group of its own), plus any
    `--prompt` override. The row's `prompts` lists exactly the templates used.
    """
    used = {ref.family: ref.version for ref in outcome.prompt_refs}
    spec = spec_of(item.suite.target)
    if spec.label_families:
        # e.g. compaction cases choose the generic or personal-assistant template, and Claude
        # adds the judge: one label for the suite, every compaction template's active version
        try:
            active = bound.library.active()
        except ConverseError:
            active = {}
        family = {f: v for f, v in active.items() if f.startswith(spec.label_families)}
        return family | used | item.variant
    if not spec.label_active_set:
        return used | item.variant
    try:
        active = bound.library.active()
    except ConverseError:
        active = {}
    pairs = {f: v for f, v in used.items() if f not in active} | active
    listed = ",".join(f"{f}={v}" for f, v in sorted(pairs.items()))
    digest = hashlib.sha256(listed.encode()).hexdigest()[:8]
    return {"prompts": f"active set {digest}"} | item.variant


def reading_fields(
    item: WorkItem, outcome: Outcome, status: str, checks: list[dict[str, Any]]
) -> dict[str, Any]:
    """What a row says of the reading: `reading: gold` when gold readings were replayed; else,
    for a case with gold readings, the provider's reading verdicts per message
    (`reading_scores`); and for a failed case whether the reading or the decision failed."""
    if item.provider == GOLD:
        return {"reading": GOLD, **({"failed_by": DECISION} if status == "fail" else {})}
    scores = case_reading(item.case, outcome.got) if outcome.error is None else None
    if scores is None:
        return {}
    found: dict[str, Any] = {"reading_scores": scores}
    if status == "fail":
        found["failed_by"] = failed_by(item.case, checks, scores)
    return found


def build_row(
    run_id: str, item: WorkItem, bound: Bound, outcome: Outcome, cached: bool
) -> dict[str, Any]:
    """The result row of one finished case (DESIGN.md, "Results and reports")."""
    scorer = SCORERS[item.suite.target]
    score = scorer(item.case.expect, outcome.got)
    status = "error" if outcome.error is not None else ("pass" if score.passed else "fail")
    prompt = _prompt_label(item, bound, outcome)
    checks = [c.as_dict() for c in score.checks]
    reads = spec_of(item.suite.target).confidences
    read = reads(outcome.got) if reads is not None else []
    return redact_row(
        {
            "run_id": run_id,
            "suite": item.suite.name,
            "target": item.suite.target,
            "case_id": item.case.id,
            "case_hash": item.case_hash,
            "tags": list(item.case.tags),
            "input": case_input(item.case),
            "provider": item.provider,
            "provider_label": bound.label,
            "model": outcome.model or bound.model,
            **({"weights_sha256": bound.weights} if bound.weights else {}),
            "variant": variant_label(item.variant),
            "prompt": prompt,
            "prompts": [ref.model_dump() for ref in outcome.prompt_refs],
            "epoch": item.epoch,
            # only perturbed rows name their perturbation, so rows of a plain run keep their shape
            **({"perturbation": item.perturbation} if item.perturbation else {}),
            "expected": score.expected,
            "got": score.got,
            "status": status,
            "pass": status == "pass",
            "error": outcome.error,
            "why": outcome.error if status == "error" else score.why,
            "checks": checks,
            **reading_fields(item, outcome, status, checks),
            **({"confidences": read} if read else {}),
            "scorer": {"name": score.scorer, "version": score.version},
            "latency_ms": round(outcome.latency_ms, 3),
            "tokens": _tokens(outcome),
            "truncated": outcome.truncated,
            "cost_usd": None if outcome.cost_usd is None else round(outcome.cost_usd, 8),
            "cassette": outcome.cassette,
            "cached": cached,
            **({"sample": item.suite.sample.as_json()} if item.suite.sample else {}),
            "git": git_state(),
            "finished_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        }
    )
