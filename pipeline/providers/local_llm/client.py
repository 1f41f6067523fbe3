"""The classifier and responder sharing one embedded model, declared as `Providers`."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pipeline.english import ENGLISH
from pipeline.errors import ConverseError
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import intent_schema
from pipeline.providers.base import Providers, code_fingerprint
from pipeline.providers.claude import wire
from pipeline.providers.local_llm.classifier import LocalLLMClassifier
from pipeline.providers.local_llm.responder import LocalLLMResponder
from pipeline.providers.local_llm.runtime import shared_engine
from pipeline.providers.local_llm.settings import PROVIDER, LocalLLMSettings
from pipeline.providers.local_llm.structured import LocalLLMStructured
from pipeline.providers.local_llm.summarizer import LocalLLMSummarizer
from pipeline.providers.local_llm.weights import choose, default_cache_dir


def local_llm_providers(*, library: PromptLibrary | None = None, **options: Any) -> Providers:
    """The classifier and responder on one model; nothing is loaded until `warm_up` or the
    first call. `options` are LocalLLMSettings fields; None means "environment or default".

    The weights are chosen (and their absence reported) here; their sha256 is checked when
    they load. The fingerprint keys cached answers on the code, the answer schema and history
    format, the weights' pinned sha256 and every setting that can change an answer.
    """
    settings = LocalLLMSettings.from_env(**options)
    for name in ("threads", "batch_threads", "slots", "ctx_per_slot", "parallel"):
        if getattr(settings, name) < 1:
            raise ConverseError(f"{PROVIDER} option {name} must be at least 1", f"fix {name}")
    if settings.parallel > settings.slots:
        raise ConverseError(
            f"{PROVIDER} option parallel ({settings.parallel}) is more than slots "
            f"({settings.slots})",
            "set parallel to at most slots",
        )
    weights = choose(settings.model)
    cache_dir = Path(settings.cache_dir) if settings.cache_dir else default_cache_dir()
    engine = shared_engine(weights, settings, cache_dir)
    classifier = LocalLLMClassifier(
        engine, library or default_library(), settings.classifier_max_tokens
    )
    responder = LocalLLMResponder(
        engine, settings.responder_max_tokens, library or default_library()
    )
    data_files = (Path(intent_schema.__file__), Path(wire.__file__))
    code = code_fingerprint(classifier, responder, files=data_files)
    answers = (
        f"{code}\n{weights.sha256}\n{settings.threads}/{settings.batch_threads}/"
        f"{settings.ctx_per_slot}/{settings.seed}/{settings.classifier_max_tokens}/"
        f"{settings.responder_max_tokens}/{settings.parallel}"
    )
    return Providers(
        classifier=classifier,
        responder=responder,
        label=f"{PROVIDER} ({weights.label}, llama.cpp, offline)",
        model=weights.label,
        weights=weights.sha256,
        data_files=data_files,
        fingerprint=hashlib.sha256(answers.encode()).hexdigest(),
        warm_up=engine.load,
        summarizer=LocalLLMSummarizer(engine),
        structured=LocalLLMStructured(engine),
        # its prompts are English: keyword matching skips English stop words (pipeline/lexicon.py)
        lexicon=ENGLISH,
    )
