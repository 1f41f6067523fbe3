"""Running one case against its target: what came back, how long it took, what it cost."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from evals.dataset.models import Case, ClassifyCase, ConverseCase, ForgetCase, MemoryBlockCase
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from pipeline.clock import utcnow
from pipeline.converse import converse
from pipeline.domain import ClassifiedIntent, HistoryTurn, PromptRef, Role, Usage
from pipeline.intents import HandlerContext, route
from pipeline.memory.block import load_personal_memory
from pipeline.providers.base import ClassifyRequest
from pipeline.store.assertions import list_assertions

# Memory ages are counted back from a fixed moment so blocks are the same on every run.
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Outcome:
    """What a target produced for one case (before scoring)."""

    got: dict[str, Any]
    error: str | None = None
    model: str = ""
    prompt_refs: tuple[PromptRef, ...] = ()
    usage: Usage = field(default_factory=Usage)
    latency_ms: float = 0.0
    cassette: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (for the cache)."""
        return {
            "got": self.got,
            "error": self.error,
            "model": self.model,
            "prompt_refs": [r.model_dump() for r in self.prompt_refs],
            "usage": self.usage.model_dump(),
            "latency_ms": self.latency_ms,
            "cassette": self.cassette,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of as_dict."""
        return cls(
            got=data["got"],
            error=data.get("error"),
            model=data.get("model", ""),
            prompt_refs=tuple(PromptRef(**r) for r in data.get("prompt_refs", [])),
            usage=Usage(**data.get("usage", {})),
            latency_ms=float(data.get("latency_ms", 0.0)),
            cassette=data.get("cassette"),
        )


def _history(case: ClassifyCase | ConverseCase) -> tuple[HistoryTurn, ...]:
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
    fallback), as a real turn would; the pipeline alone matches by keywords.
    """
    person, _ = sandbox.person(case.memories, NOW)
    classified = ClassifiedIntent(
        intent="forget_about_me", params={"forget_description": case.message}, provider="eval"
    )
    embedder = bound.embedder
    started = time.perf_counter()
    with sandbox.store.write() as session:
        result = route(
            HandlerContext(
                session=session,
                person=person,
                project=None,
                classified=classified,
                prior_companion=None,
                now=NOW,
                embedder=embedder,
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
    model = str(getattr(embedder, "model_name", "")) if embedder is not None else ""
    return Outcome(got={"action": action, "matched": matched}, latency_ms=elapsed, model=model)


def run_converse(case: ConverseCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """One whole turn through the pipeline on the sandbox store."""
    assert bound.classifier is not None and bound.responder is not None
    now = utcnow()
    person, _ = sandbox.person(case.memories, now, case.project, case.history)
    started = time.perf_counter()
    outcome = converse(
        sandbox.store,
        person=person.name,
        message=case.message,
        classifier=bound.classifier,
        responder=bound.responder,
        project=case.project,
        library=bound.library,
        channel="eval",
    )
    elapsed = (time.perf_counter() - started) * 1000
    assert person.personal_engagement_id is not None
    with sandbox.store.read() as session:
        stored = list_assertions(session, person.personal_engagement_id)
    memory: dict[str, list[str]] = {"held": [], "committed": [], "retracted": []}
    for assertion in stored:
        memory[assertion.force.value].append(assertion.content)
    reply_error = outcome.companion_turn.meta.get("responder", {}).get("error")
    return Outcome(
        got={
            **_classified(outcome.classified),
            "reply": outcome.reply.text,
            "operation": outcome.route.operation_data,
            "memory": memory,
        },
        error=outcome.classified.error or reply_error,
        model=outcome.classified.model or bound.model,
        prompt_refs=outcome.classified.prompt_refs + outcome.prompt.refs,
        usage=outcome.classified.usage + outcome.reply.usage,
        latency_ms=elapsed,
        cassette=_cassette(bound),
    )


def run_case(target: str, case: Case, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Dispatch on the suite's target."""
    if target == "classify" and isinstance(case, ClassifyCase):
        return run_classify(case, bound)
    if target == "memory_block" and isinstance(case, MemoryBlockCase):
        return run_memory_block(case, sandbox)
    if target == "forget_match" and isinstance(case, ForgetCase):
        return run_forget_match(case, bound, sandbox)
    if target == "converse" and isinstance(case, ConverseCase):
        return run_converse(case, bound, sandbox)
    raise TypeError(f"a {type(case).__name__} cannot run on target {target}")
