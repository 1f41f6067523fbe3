"""The provider protocols: one to classify, one to respond."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pipeline.assemble import AssembledPrompt
from pipeline.domain import ClassifiedIntent, HistoryTurn, PromptRef, Reply, RouteResult, Usage
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, REQUIRED_PARAMS


@dataclass(frozen=True)
class ClassifyRequest:
    """What a classifier sees: the message, the earlier turns, and the project if any."""

    message: str
    history: tuple[HistoryTurn, ...] = ()
    project_name: str | None = None

    @property
    def prior_companion(self) -> HistoryTurn | None:
        """The companion turn just before this message, if the last turn was the companion's."""
        if self.history and self.history[-1].role.value == "companion":
            return self.history[-1]
        return None


@dataclass(frozen=True)
class RespondRequest:
    """What a responder sees: the system prompt, the conversation, and what the handler did."""

    system: AssembledPrompt
    history: tuple[HistoryTurn, ...]
    message: str
    route: RouteResult
    project_name: str | None = None


@runtime_checkable
class Classifier(Protocol):
    """Decides which intent a message expresses."""

    name: str

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify; never raises for bad model output (see `degraded`)."""
        ...


@runtime_checkable
class Responder(Protocol):
    """Writes the companion's reply."""

    name: str

    def respond(self, request: RespondRequest) -> Reply:
        """Reply to the operator; raises ProviderError when no reply can be had."""
        ...


def degraded(
    error: str,
    *,
    provider: str,
    model: str = "",
    prompt_refs: tuple[PromptRef, ...] = (),
    usage: Usage | None = None,
) -> ClassifiedIntent:
    """The classification used when an answer is unusable: conversation, with the error."""
    return ClassifiedIntent(
        intent=FALLBACK_INTENT,
        error=error,
        provider=provider,
        model=model,
        prompt_refs=prompt_refs,
        usage=usage or Usage(),
    )


def validated(
    intent: Any,
    params: Any,
    *,
    provider: str,
    model: str = "",
    confidence: float | None = None,
    prompt_refs: tuple[PromptRef, ...] = (),
    usage: Usage | None = None,
) -> ClassifiedIntent:
    """Check a provider's raw answer against the taxonomy; degrade it if unusable."""
    meta: dict[str, Any] = {
        "provider": provider,
        "model": model,
        "prompt_refs": prompt_refs,
        "usage": usage,
    }
    if not isinstance(intent, str) or intent not in INTENTS:
        return degraded(f"unknown intent {intent!r}", **meta)
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        return degraded(f"parameters of {intent} are not an object: {params!r}", **meta)
    allowed = INTENTS[intent].params
    clean = {
        str(k): " ".join(str(v).split())
        for k, v in params.items()
        if k in allowed and v is not None and str(v).strip()
    }
    missing = [p for p in REQUIRED_PARAMS.get(intent, ()) if p not in clean]
    if missing:
        return degraded(f"{intent} without its parameter {', '.join(missing)}", **meta)
    return ClassifiedIntent(
        intent=intent,
        params=clean,
        confidence=confidence,
        provider=provider,
        model=model,
        prompt_refs=prompt_refs,
        usage=usage or Usage(),
    )
