"""What the exported promptfoo provider calls: one suite case through our pipeline.

promptfoo passes the test's vars; `case` is the suite case as JSON and `target` the suite's
target. The answer is the field of `got` the target's spec exports (memory_block's block text), or
else the whole `got` as JSON (classify, forget_match); what a spec refuses is never exported.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, TextIO

from evals.dataset.cases import CASE_MODELS
from evals.dataset.models import Target
from evals.runner.providers import DETERMINISTIC, ProviderPool
from evals.runner.sandbox import Sandbox
from evals.runner.targets import run_case
from evals.targets import spec_of

_lock = threading.Lock()
_pools: dict[str, ProviderPool] = {}
_sandbox = Sandbox()


def _pool(config: dict[str, Any]) -> ProviderPool:
    key = json.dumps(config, sort_keys=True)
    with _lock:
        if key not in _pools:
            script = config.get("script")
            _pools[key] = ProviderPool(
                Path(script) if script else None, {config["provider"]: config.get("options", {})}
            )
        return _pools[key]


def call(config: dict[str, Any], variables: dict[str, Any]) -> dict[str, Any]:
    """A promptfoo ProviderResponse for one case."""
    target: Target = config["target"]
    spec = spec_of(target)
    raw = variables["case"]
    case = CASE_MODELS[target].model_validate(json.loads(raw) if isinstance(raw, str) else raw)
    # forget matching uses the provider's embedding model when it lends one (as a turn does)
    provider = DETERMINISTIC if spec.runs_on == "pipeline" else config["provider"]
    bound = _pool(config).get(provider, dict(config.get("prompt_versions") or {}))
    outcome = run_case(target, case, bound, _sandbox)  # type: ignore[arg-type]
    usage = outcome.usage
    response: dict[str, Any] = {
        "output": outcome.got.get(spec.export_answer, "")
        if spec.export_answer is not None
        else json.dumps(outcome.got, ensure_ascii=False),
        "tokenUsage": {
            "prompt": usage.input_tokens,
            "completion": usage.output_tokens,
            "total": usage.input_tokens + usage.output_tokens,
        },
        "metadata": {
            "provider": bound.label,
            "model": outcome.model,
            "prompts": [ref.model_dump() for ref in outcome.prompt_refs],
            "latency_ms": round(outcome.latency_ms, 3),
        },
    }
    if outcome.error is not None:
        response["error"] = outcome.error
    return response


def serve(requests: TextIO, answers: TextIO) -> None:
    """Answer one JSON request per line ({"config", "vars"}) with one JSON line each, until
    the input ends; a case that fails answers with its error, and the next one still runs."""
    for line in requests:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            answer = call(request["config"], request["vars"])
        except Exception as exc:  # one bad test must not end the eval
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer, ensure_ascii=False) + "\n")
        answers.flush()
