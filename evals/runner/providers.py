"""Providers for a run: built once per (provider, prompt variant), labelled for every table."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.runner.gold import GOLD, GOLD_LABEL, GOLD_MODEL, gold_fingerprint
from evals.targets import spec_of
from pipeline.english import ENGLISH
from pipeline.errors import ConverseError
from pipeline.lexicon import Lexicon
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers import (
    PROVIDER_NAMES,
    REGISTRY,
    Classifier,
    ProviderOptions,
    Providers,
    ProviderSpec,
    Responder,
)
from pipeline.redact import redact

if TYPE_CHECKING:
    from pipeline.memory.embeddings import Embedder
    from pipeline.providers import StructuredGenerator, Summarizer

# memory_block and forget_match exercise the pipeline's own code, not a model: they run once
# under this provider name, whatever providers the run was given. forget_match also runs under
# each provider that lends the pipeline an embedding model (semantic tie-break and fallback).
DETERMINISTIC = "pipeline"
DETERMINISTIC_LABEL = "pipeline (deterministic code, no model)"

# The provider table: the registry's, or stand-ins declared the same way (tests, benchmarks).
Registry = Mapping[str, ProviderSpec]


def variant_label(variant: Mapping[str, str]) -> str:
    """A prompt variant as text: "classifier=v2", or "active" when nothing is overridden."""
    return ",".join(f"{k}={v}" for k, v in sorted(variant.items())) or "active"


def parse_prompt_options(options: Sequence[str]) -> list[dict[str, str]]:
    """`--prompt family=version` options -> every combination of the versions given."""
    versions: dict[str, list[str]] = {}
    for option in options:
        family, sep, version = option.partition("=")
        if not sep or not family.strip() or not version.strip():
            raise ConverseError(
                f"--prompt {option!r} is not FAMILY=VERSION", "e.g. --prompt classifier=v2"
            )
        chosen = versions.setdefault(family.strip(), [])
        if version.strip() not in chosen:
            chosen.append(version.strip())
    families = sorted(versions)
    variants = [
        dict(zip(families, combo, strict=True))
        for combo in itertools.product(*(versions[f] for f in families))
    ]
    for variant in variants:
        library = default_library(variant)
        library.active()  # unknown families are errors that list the known ones
        for family, version in variant.items():
            library.path(family, version)
    return variants or [{}]


def parse_provider_options(options: Sequence[str]) -> dict[str, dict[str, str]]:
    """`--provider-option claude.model=NAME` -> {"claude": {"model": "NAME"}}."""
    parsed: dict[str, dict[str, str]] = {}
    for option in options:
        key, sep, value = option.partition("=")
        name, dot, setting = key.partition(".")
        if not sep or not dot or not name or not setting:
            raise ConverseError(
                f"--provider-option {option!r} is not PROVIDER.KEY=VALUE",
                "e.g. --provider-option claude.model=claude-sonnet-4-5",
            )
        parsed.setdefault(name, {})[setting] = value
    return parsed


def relevant_families(target: str, library: PromptLibrary) -> list[str]:
    """The prompt families whose text can change a cached target's answer (for cache keys)."""
    try:
        families = list(library.active())
    except ConverseError:
        return []
    prefixes = spec_of(target).cache_families
    return [f for f in families if prefixes and f.startswith(prefixes)]


def prompt_hashes(target: str, library: PromptLibrary) -> dict[str, str]:
    """family -> sha256 of each relevant template."""
    return {f: library.source(f)[1].sha256 for f in relevant_families(target, library)}


@dataclass(frozen=True)
class Bound:
    """Built providers for one prompt variant, and what to call them in tables."""

    name: str
    label: str
    model: str
    fingerprint: str
    classifier: Classifier | None
    responder: Responder | None
    library: PromptLibrary
    variant: dict[str, str] = field(default_factory=dict)
    cassette: str | None = None
    # The embedding model the provider lends the pipeline (forget matching), if any.
    embedder: Embedder | None = None
    # What writes the provider's compaction summaries; None: the extractive one (no model).
    summarizer: Summarizer | None = None
    # The model that answers the compression stages (closure suites), if the provider has one.
    structured: StructuredGenerator | None = None
    # The whole declared bundle: conversation cases run converse() with it, as chat does.
    providers: Providers | None = None

    @property
    def lexicon(self) -> Lexicon:
        """The bundle's lexicon (pipeline/lexicon.py); the pipeline alone, with no bundle,
        reads the suites' messages in English, as every registered provider does."""
        return self.providers.lexicon if self.providers is not None else ENGLISH


def _label(name: str, label: str, model: str) -> str:
    text = label or name
    if name not in text.lower():
        text = f"{name} ({text})"
    if "synthetic" in model.lower() and "synthetic" not in text.lower():
        text += " (synthetic)"
    return text


class ProviderPool:
    """Builds each (provider, variant) once, on first use, from any thread."""

    def __init__(
        self,
        script: Path | None = None,
        options: Mapping[str, Mapping[str, str]] | None = None,
        registry: Registry = REGISTRY,
        cassette: Path | None = None,
        middleware: Sequence[Any] = (),
    ) -> None:
        self._script = script
        self._middleware = tuple(middleware)
        self._cassette = cassette
        self._stack = ExitStack()
        self._options = {k: dict(v) for k, v in (options or {}).items()}
        self._registry = registry
        self._built: dict[tuple[str, str], Bound] = {}
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, name: str, variant: Mapping[str, str]) -> Bound:
        """The providers called `name` with the prompt versions of `variant`."""
        key = (name, variant_label(variant))
        with self._guard:
            if key in self._built:
                return self._built[key]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._built:
                self._built[key] = self._build(name, dict(variant))
            return self._built[key]

    def spec(self, name: str) -> ProviderSpec:
        """What the provider called `name` declares before it is built."""
        try:
            return self._registry[name]
        except KeyError:
            raise ConverseError(
                f"unknown provider {name!r}", f"choose one of: {', '.join(PROVIDER_NAMES)}"
            ) from None

    def close(self) -> None:
        """Leave any cassette the providers were bound to."""
        self._stack.close()

    def _build(self, name: str, variant: dict[str, str]) -> Bound:
        library = default_library(variant)
        if name == DETERMINISTIC:
            return Bound(name, DETERMINISTIC_LABEL, "", "", None, None, library, variant)
        if name == GOLD:  # each case gets its own gold classifier when it runs (gold_bound)
            return Bound(GOLD, GOLD_LABEL, GOLD_MODEL, gold_fingerprint(), None, None, library)
        spec = self.spec(name)
        spec.check_prompt_families(variant)
        cassette = self._cassette if spec.uses_cassettes else None
        providers = self._make(spec, library, variant, cassette)
        if providers.warm_up is not None:
            providers.warm_up()  # load a model now, not inside the first case's latency
        label = redact(_label(name, providers.label, providers.model))
        if cassette is not None:
            synthetic = "synthetic" in cassette.parts or "synthetic" in cassette.name
            label += (
                " (replayed from synthetic cassettes)"
                if synthetic
                else " (replayed from cassettes)"
            )
        return Bound(
            name=name,
            label=label,
            model=providers.model,
            fingerprint=providers.fingerprint,
            classifier=providers.classifier,
            responder=providers.responder,
            library=library,
            variant=variant,
            cassette=str(cassette) if cassette is not None else None,
            embedder=providers.embedder,
            summarizer=providers.summarizer,
            structured=providers.structured,
            providers=providers,
        )

    def _make(
        self,
        spec: ProviderSpec,
        library: PromptLibrary,
        variant: dict[str, str],
        cassette: Path | None,
    ) -> Providers:
        settings: dict[str, Any] = dict(self._options.get(spec.name, {}))
        if cassette is None:
            options = ProviderOptions(
                settings=settings,
                library=library,
                script=self._script,
                middleware=self._middleware,
            )
            return spec.factory(options)
        # Cassettes are recorded from the Claude wire format, the one provider declaring them.
        from evals.cassettes.session import cassette_claude

        session = self._stack.enter_context(
            cassette_claude(
                cassette,
                mode="replay",
                rerecord=f"converse record (cassette {cassette})",
                library=library,
                overrides=variant,
                **settings,
            )
        )
        providers: Providers = session.providers
        return providers
