"""llama.cpp in process, through the `xllamacpp` prebuilt CPU wheel: one loaded model shared by
every classifier and responder built on the same weights and settings.

Calls go through the runtime's Chat Completions handler (the model's own chat template,
JSON-schema constrained output, greedy decoding with a fixed seed). With `parallel` 1 (the
default) each call runs alone, so answers never depend on which other calls happened to run
beside them; with `parallel` N, up to N calls are decoded together in llama.cpp's slots
(admission.py), one KV buffer shared by every slot. Each slot keeps the prompt it last
evaluated: a call whose prompt starts like a slot's (the classifier's taxonomy, rules and
examples) is given that slot by llama.cpp and evaluates only the tokens after the shared
prefix. The runtime also opens an HTTP listener on a random loopback port (xllamacpp
always does); nothing here sends anything to it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.domain import Usage
from pipeline.errors import ConverseError
from pipeline.providers.chat_wire import ChatCompletion
from pipeline.providers.local_llm.admission import Admission
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.local_llm.weights import ModelWeights, locate

Message = dict[str, str]


class _Timings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    cache_n: int = 0
    prompt_n: int = 0
    prompt_ms: float = 0.0
    predicted_n: int = 0
    predicted_ms: float = 0.0


class _Completion(ChatCompletion):
    """What llama.cpp in process answers: a Chat Completions body with its timings."""

    timings: _Timings = _Timings()


@dataclass(frozen=True)
class Completion:
    """One answer: its text, why generation stopped, and what it cost."""

    text: str
    finish_reason: str | None
    usage: Usage
    prompt_ms: float
    predicted_n: int
    predicted_ms: float
    wall_ms: float


class GenerationFailed(Exception):
    """The runtime gave no usable answer; the message says why in one line."""


class Engine:
    """One model loaded by llama.cpp; `load` is idempotent and thread-safe."""

    def __init__(self, weights: ModelWeights, settings: LocalLLMSettings, cache_dir: Path) -> None:
        self.weights = weights
        self.settings = settings
        self.cache_dir = cache_dir
        self.load_s: float | None = None
        self.path: Path | None = None
        self._server: Any = None
        self._lock = threading.Lock()
        self.admission = Admission(max(1, settings.parallel))
        # The last answer, timings included (benchmarks read it).
        self.last: Completion | None = None

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory."""
        return self._server is not None

    def load(self) -> None:
        """Check the weights' sha256 (joining split parts first, once) and load them."""
        with self._lock:
            if self._server is not None:
                return
            started = time.perf_counter()
            path = locate(self.weights, self.cache_dir)
            self._server = _start(path, self.settings)
            self.path = path
            self.load_s = time.perf_counter() - started

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        response_format: dict[str, Any] | None = None,
        prefix: str | None = None,
    ) -> Completion:
        """One chat completion; GenerationFailed when the runtime reports an error.

        `prefix` names the prompt's stable beginning (a template's sha256): the first call of
        a prefix runs alone so that the calls after it reuse it from the prompt cache."""
        self.load()
        request: dict[str, Any] = {
            "messages": list(messages),
            "max_tokens": max_tokens,
            "temperature": 0.0,
            "seed": self.settings.seed,
            "cache_prompt": True,
        }
        if response_format is not None:
            request["response_format"] = response_format
        with self.admission.admit(prefix):
            started = time.perf_counter()
            try:
                raw = self._server.handle_chat_completions(request)
            except Exception as exc:  # the runtime raises plain exceptions for bad requests
                raise GenerationFailed(f"llama.cpp refused the request: {exc}") from exc
            wall_ms = (time.perf_counter() - started) * 1000
        if isinstance(raw, dict) and "error" in raw:
            error = raw["error"]
            detail = error.get("message", error) if isinstance(error, dict) else error
            raise GenerationFailed(f"llama.cpp answered with an error: {detail}")
        try:
            body = _Completion.model_validate(raw)
        except ValidationError as exc:
            raise GenerationFailed(
                f"llama.cpp answered with no completion ({exc.errors()[0]['msg']})"
            ) from exc
        if not body.choices:
            raise GenerationFailed("llama.cpp answered with no choices")
        timings = body.timings
        completion = Completion(
            text=body.text,
            finish_reason=body.choices[0].finish_reason,
            usage=body.usage_record().model_copy(
                update={"cache_read_input_tokens": timings.cache_n}
            ),
            prompt_ms=timings.prompt_ms,
            predicted_n=timings.predicted_n,
            predicted_ms=timings.predicted_ms,
            wall_ms=wall_ms,
        )
        self.last = completion
        return completion

    def close(self) -> None:
        """Free the model (a benchmark loads two configurations one after the other)."""
        with self._lock:
            self._server = None


def _start(path: Path, settings: LocalLLMSettings) -> Any:
    try:
        import xllamacpp
    except ImportError as exc:
        raise ConverseError(
            "the local-llm provider needs the xllamacpp runtime, which is not installed",
            'install it with `pip install -e ".[llm-runtime]"` (or `bash scripts/setup.sh --dev`)',
        ) from exc
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_parallel = settings.slots
    params.n_ctx = settings.slots * settings.ctx_per_slot
    params.cpuparams.n_threads = max(1, settings.threads)
    params.cpuparams_batch.n_threads = max(1, settings.batch_threads)
    # Threads wait for each other without spinning: on a shared machine a spinning thread
    # takes the core its partner needs (the arithmetic is the same either way).
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0
    if settings.parallel > 1:
        # One KV buffer for every slot, so an idle slot's prompt can go to the prompt cache
        # (host memory); measured, other slots still evaluate the prefix once each.
        params.kv_unified = True
    params.sampling.temp = 0.0
    params.sampling.seed = settings.seed
    params.cache_prompt = True
    params.warmup = False
    params.verbosity = 0
    try:
        return xllamacpp.Server(params)
    except Exception as exc:
        raise ConverseError(
            f"llama.cpp could not load {path}: {exc}",
            "check the file, or reinstall the weights",
        ) from exc


_ENGINES: dict[tuple[object, ...], Engine] = {}
_ENGINES_LOCK = threading.Lock()


def shared_engine(weights: ModelWeights, settings: LocalLLMSettings, cache_dir: Path) -> Engine:
    """The one engine for these weights and settings in this process (two prompt versions in
    one eval share a loaded model)."""
    key = (
        weights.name,
        str(cache_dir),
        settings.threads,
        settings.batch_threads,
        settings.slots,
        settings.ctx_per_slot,
        settings.seed,
        settings.parallel,
    )
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = Engine(weights, settings, cache_dir)
        return engine
