"""`converse bench llm`: the embedded generative model (local-llm provider) on this machine.

`load_s` is the first load: the weights' sha256 check (and, for a split model, joining its
parts once into the cache folder) plus llama.cpp reading them. The first classification runs
with no cached prompt (`classify_cold_ms`); the median over the requests after it is
`classify_warm_ms`, each evaluating only its own tokens after the classifier's stable prefix
(taxonomy, rules, examples), which llama.cpp keeps in its slot. `prefix_cache_speedup` is
cold ÷ warm. `reply_tokens_per_s` is generation speed (tokens ÷ generation time, as llama.cpp
times it) over replies to a fixed assembled system prompt.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from evals.bench.local import REQUESTS
from pipeline.assemble import assemble_prompt
from pipeline.context import EngagementContext
from pipeline.domain import HistoryTurn, Role, RouteResult, Visibility
from pipeline.errors import ConverseError
from pipeline.prompting import default_library
from pipeline.providers import ProviderOptions, RespondRequest, make_providers
from pipeline.providers.local_llm import LocalLLMClassifier


def run(n: int = 10, replies: int = 3, model: str | None = None) -> dict[str, Any]:
    """Measure the installed model (or `model`); figures keyed as the issue names them."""
    settings = {"model": model} if model else {}
    providers = make_providers("local-llm", ProviderOptions(settings=settings))
    classifier = providers.classifier
    if not isinstance(classifier, LocalLLMClassifier):  # pragma: no cover - the registry's
        raise ConverseError("the local-llm provider is not the embedded model", "")
    engine = classifier.engine
    already = engine.loaded
    engine.load()
    load_s = engine.load_s or 0.0
    requests = [REQUESTS[i % len(REQUESTS)] for i in range(n + 1)]
    started = time.perf_counter()
    first = classifier.classify(requests[0])
    cold_ms = (time.perf_counter() - started) * 1000
    warm: list[float] = []
    cached: list[int] = []
    degraded = int(first.error is not None)
    for request in requests[1:]:
        started = time.perf_counter()
        answer = classifier.classify(request)
        warm.append((time.perf_counter() - started) * 1000)
        cached.append(answer.usage.cache_read_input_tokens)
        degraded += int(answer.error is not None)
    warm_ms = statistics.median(warm)
    tokens = 0
    generation_ms = 0.0
    for _ in range(replies):
        providers.responder.respond(_reply_request())
        last = engine.last
        if last is not None:
            tokens += last.predicted_n
            generation_ms += last.predicted_ms
    return {
        "model": providers.model,
        "load_s": round(load_s, 3),
        "classify_cold_ms": round(cold_ms, 1),
        "classify_warm_ms": round(warm_ms, 1),
        "prefix_cache_speedup": round(cold_ms / warm_ms, 2),
        "reply_tokens_per_s": round(tokens / (generation_ms / 1000), 2) if generation_ms else 0.0,
        "prompt_tokens_cold": first.usage.input_tokens,
        "cached_prefix_tokens": int(statistics.median(cached)) if cached else 0,
        "degraded": degraded,
        "model_loaded_before": already,
        "n": n,
        "replies": replies,
    }


def _reply_request() -> RespondRequest:
    """A fixed project turn: persona, engagement context, memory block, cross-promotion and the
    general-conversation instruction, after one earlier exchange."""
    route = RouteResult(intent="general_conversation", operation_data={"action": "replied"})
    system = assemble_prompt(
        default_library(),
        companion_name="Companion",
        operator_name="Ana",
        engagement_context=EngagementContext(
            name="Backyard garden",
            visibility=Visibility.PROJECT,
            seed="Raised beds, clay soil",
            knowledge="- The soil pH should be 6.5",
        ),
        route=route,
        personal_memory=(
            "PERSONAL MEMORY\nThings you've told me about yourself:\n"
            "- You prefer working in the mornings (noted 2 days ago)"
        ),
        has_project=True,
    )
    history = (
        HistoryTurn(role=Role.OPERATOR, content="The beds get six hours of sun."),
        HistoryTurn(role=Role.COMPANION, content="Noted: six hours of sun on the beds."),
    )
    return RespondRequest(
        system=system,
        history=history,
        message="What should I plant next to the tomatoes?",
        route=route,
        project_name="Backyard garden",
    )
