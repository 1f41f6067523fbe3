"""`converse bench llm`: the embedded generative model (local-llm provider) on this machine.

`load_s` is the first load: the weights' sha256 check (and, for a split model, joining its
parts once into the cache folder) plus llama.cpp reading them. The first classification runs
with no cached prompt (`classify_cold_ms`); the median over the requests after it is
`classify_warm_ms`, each evaluating only its own tokens after the classifier's stable prefix
(taxonomy, rules, examples), which llama.cpp keeps in its slot. `prefix_cache_speedup` is
cold ÷ warm. `reply_tokens_per_s` is generation speed (tokens ÷ generation time, as llama.cpp
times it) over replies to a fixed assembled system prompt.

`prompt_smoke` is the suite through the classifier from a freshly loaded model (llm_smoke.py):
cases per minute with `parallel` requests decoded together and, as the baseline, one at a time
(`parallel` 1), each with its accuracy, and how far the two sets of answers agree.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from evals.bench.llm_smoke import SmokeRun, agreement, measure, smoke_cases
from evals.bench.local import REQUESTS
from pipeline.assemble import assemble_prompt
from pipeline.context import EngagementContext
from pipeline.domain import HistoryTurn, Role, RouteResult, Visibility
from pipeline.errors import ConverseError
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import ProviderOptions, Providers, RespondRequest, make_providers
from pipeline.providers.local_llm import LocalLLMClassifier


def run(
    n: int = 10,
    replies: int = 3,
    model: str | None = None,
    smoke: int = 50,
    parallel: int = 4,
    baseline: bool = True,
    classifier: str | None = None,
) -> dict[str, Any]:
    """Measure the installed model (or `model`); figures keyed as the issue names them.
    `n` warm classifications (0: no latency figures); `smoke` prompt_smoke cases (0: none)
    with `parallel` requests decoded together, and one at a time too when `baseline`;
    `classifier` is the prompt version (default: the active one)."""
    settings: dict[str, Any] = {"model": model} if model else {}
    library = default_library({"classifier": classifier} if classifier else None)
    providers = make_providers("local-llm", ProviderOptions(settings=settings, library=library))
    figures: dict[str, Any] = {"model": providers.model}
    if n:
        figures.update(_latency(providers, n, replies))
    if smoke:
        figures.update(_smoke(settings, library, smoke, parallel, baseline))
    return figures


def _latency(providers: Providers, n: int, replies: int) -> dict[str, Any]:
    """Load, cold and warm classification, reply generation speed."""
    reader = providers.classifier
    if not isinstance(reader, LocalLLMClassifier):  # pragma: no cover - the registry's
        raise ConverseError("the local-llm provider is not the embedded model", "")
    engine = reader.engine
    already = engine.loaded
    engine.load()
    load_s = engine.load_s or 0.0
    requests = [REQUESTS[i % len(REQUESTS)] for i in range(n + 1)]
    started = time.perf_counter()
    first = reader.classify(requests[0])
    cold_ms = (time.perf_counter() - started) * 1000
    warm: list[float] = []
    cached: list[int] = []
    degraded = int(first.error is not None)
    for request in requests[1:]:
        started = time.perf_counter()
        answer = reader.classify(request)
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
    engine.close()
    return {
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


def _smoke(
    settings: dict[str, Any], library: PromptLibrary, limit: int, parallel: int, baseline: bool
) -> dict[str, Any]:
    """prompt_smoke with `parallel` requests together, then (baseline) one at a time."""
    cases = smoke_cases(limit)
    load_before = os.getloadavg()[0]
    runs: dict[str, SmokeRun] = {}
    widths = {"parallel": parallel, **({"serial": 1} if baseline else {})}
    for label, width in widths.items():
        options = ProviderOptions(settings={**settings, "parallel": width}, library=library)
        classifier = make_providers("local-llm", options).classifier
        if not isinstance(classifier, LocalLLMClassifier):  # pragma: no cover - the registry's
            raise ConverseError("the local-llm provider is not the embedded model", "")
        classifier.engine.load()
        runs[label] = measure(classifier, cases, width)
        classifier.engine.close()
    # The machine is shared: the load average around the measurement says how much.
    result: dict[str, Any] = {
        "prompt_smoke_cases": len(cases),
        "prompt_smoke_parallel": parallel,
        "prompt_smoke_load_before": round(load_before, 2),
        "prompt_smoke_load_after": round(os.getloadavg()[0], 2),
    }
    for label, smoke_run in runs.items():
        result[f"prompt_smoke_{label}_cases_per_min"] = round(smoke_run.cases_per_min, 2)
        result[f"prompt_smoke_{label}_s"] = round(smoke_run.seconds, 1)
        result[f"prompt_smoke_{label}_accuracy"] = round(smoke_run.accuracy, 4)
        result[f"prompt_smoke_{label}_degraded"] = smoke_run.degraded
        result[f"prompt_smoke_{label}_failed_cases"] = [
            case_id
            for (case_id, _), passed in zip(smoke_run.answers, smoke_run.passed, strict=True)
            if not passed
        ]
    if "serial" in runs:
        serial, fast = runs["serial"], runs["parallel"]
        result["prompt_smoke_speedup"] = (
            round(serial.seconds / fast.seconds, 2) if fast.seconds else 0.0
        )
        result.update({f"prompt_smoke_{k}": v for k, v in agreement(serial, fast).items()})
    return result


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
