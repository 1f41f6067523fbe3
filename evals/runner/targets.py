"""Running one case against its target: what came back, how long it took, what it cost."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from evals.dataset.cases import Case
from evals.dataset.models import ClassifyCase, ForgetCase, MemoryBlockCase, Target
from evals.runner.acts import acts_record
from evals.runner.closure import run_closure
from evals.runner.compaction import run_compaction
from evals.runner.consolidation import run_consolidation
from evals.runner.conversation import run_conversation
from evals.runner.gold import GOLD, gold_bound
from evals.runner.outcome import NOW, Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from evals.runner.writing import run_writing
from evals.targets import spec_of
from pipeline.domain import HistoryTurn, Role
from pipeline.intents import HandlerContext, route
from pipeline.memory import load_personal_memory
from pipeline.providers import ClassifyRequest
from pipeline.providers.claude import cost
from pipeline.reading import ClassifiedIntent


def _history(case: ClassifyCase) -> tuple[HistoryTurn, ...]:
    return tuple(
        HistoryTurn(
            role=Role(h.role), content=h.content, intent=h.intent, operation_data=h.operation_data
        )
        for h in case.history
    )


def _classified(classified: ClassifiedIntent) -> dict[str, Any]:
    return {
        "intent": classified.intent,
        "params": dict(classified.params),
        "confidence": classified.confidence,
        # every act read, for the reading's accuracy against a gold reading (evals/reading)
        "acts": acts_record(classified),
    }


def _cassette(bound: Bound) -> str | None:
    return bound.cassette


def run_classify(case: ClassifyCase, bound: Bound) -> Outcome:
    """Ask the classifier about the message, given the history and project."""
    assert bound.classifier is not None
    request = ClassifyRequest(
        message=case.message, history=_history(case), project_name=case.project
    )
    started = time.perf_counter()
    classified = bound.classifier.classify(request)
    elapsed = (time.perf_counter() - started) * 1000
    return Outcome(
        got=_classified(classified),
        error=classified.error,
        model=classified.model or bound.model,
        prompt_refs=classified.prompt_refs,
        usage=classified.usage,
        latency_ms=elapsed,
        cassette=_cassette(bound),
        cost_usd=cost(classified.model, classified.usage),
    )


def run_memory_block(case: MemoryBlockCase, sandbox: Sandbox) -> Outcome:
    """Store the memories for a new person and load their block as a project turn would."""
    person, _ = sandbox.person(case.memories, NOW)
    assert person.personal_engagement_id is not None
    started = time.perf_counter()
    with sandbox.store.read() as session:
        block = load_personal_memory(session, person.personal_engagement_id, NOW)
    elapsed = (time.perf_counter() - started) * 1000
    return Outcome(got={"block": block, "chars": len(block)}, latency_ms=elapsed)


def run_forget_match(case: ForgetCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Route the message as a forget request through the forget handler.

    The handler gets the provider's embedding model when it lends one (semantic tie-break and
    fallback), as a real turn would; the pipeline alone matches by keywords. The suite's
    messages are English: the pipeline alone reads them with the English lexicon, which every
    registered provider lends (pipeline/providers/registry.py).
    """
    person, _ = sandbox.person(case.memories, NOW)
    classified = ClassifiedIntent(
        intent="forget_about_me", params={"forget_description": case.message}, provider="eval"
    )
    embedder = bound.embedder
    started = time.perf_counter()
    with sandbox.store.read() as session:  # a forget only matches; nothing is stored
        result = route(
            HandlerContext(
                session=session,
                person=person,
                project=None,
                classified=classified,
                prior_companion=None,
                now=NOW,
                embedder=embedder,
                message=case.message,
                lexicon=bound.lexicon,
            )
        )
    elapsed = (time.perf_counter() - started) * 1000
    data = result.operation_data
    action = data.get("action")
    if action == "confirm_retraction":
        matched = [data["matched_fact"]]
    elif action == "ambiguous":
        matched = [c["content"] for c in data.get("candidates", [])]
    else:
        matched = []
    model = embedder.model_name if embedder is not None else ""
    return Outcome(got={"action": action, "matched": matched}, latency_ms=elapsed, model=model)


Runner = Callable[[Any, Bound, Sandbox], Outcome]

# One runner per target (evals/targets.py lists the targets; the contract test checks this
# table covers them). Each takes the case model its target's spec names.
RUNNERS: dict[Target, Runner] = {
    "classify": lambda case, bound, _sandbox: run_classify(case, bound),
    "memory_block": lambda case, _bound, sandbox: run_memory_block(case, sandbox),
    "forget_match": run_forget_match,
    "conversation": run_conversation,
    "compaction": run_compaction,
    "closure": lambda case, bound, _sandbox: run_closure(case, bound),
    "consolidation": run_consolidation,
    "writing": run_writing,
}


def run_case(target: str, case: Case, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Run the case with its target's runner."""
    spec = spec_of(target)
    if not isinstance(case, spec.case_model):
        raise TypeError(f"a {type(case).__name__} cannot run on target {target}")
    if bound.name == GOLD:  # `--reading gold`: the case's own gold readings answer
        bound = gold_bound(bound, case)
    return RUNNERS[spec.name](case, bound, sandbox)
