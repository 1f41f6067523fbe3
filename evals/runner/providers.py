"""Providers for a run: built once per (provider, prompt variant), labelled for every table."""

from __future__ import annotations

import hashlib
import inspect
import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import ConverseError
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers.base import Classifier, Responder
from pipeline.providers.registry import Providers, make_providers

# memory_block and forget_match exercise the pipeline's own code, not a model: they run once
# under this provider name, whatever providers the run was given. forget_match also runs under
# each provider that lends the pipeline an embedding model (semantic tie-break and fallback).
DETERMINISTIC = "pipeline"
DETERMINISTIC_LABEL = "pipeline (deterministic code, no model)"

Factory = Callable[..., Providers]


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
    if target == "classify":
        return [f for f in families if f.startswith("classifier")]
    return []


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

    @property
    def embedder(self) -> Any:
        """The embedding model a classifier lends the pipeline (forget matching), if any."""
        from pipeline.memory.embeddings import Embedder

        found = getattr(self.classifier, "embedder", None)
        return found if isinstance(found, Embedder) else None


def _label(name: str, label: str, model: str) -> str:
    text = label or name
    if name not in text.lower():
        text = f"{name} ({text})"
    if "synthetic" in model.lower() and "synthetic" not in text.lower():
        text += " (synthetic)"
    return text


def _code_hash(digest: Any, *objects: object) -> None:
    """Every module beside the ones defining these objects (a provider's package)."""
    folders: set[Path] = set()
    for obj in objects:
        try:
            source = inspect.getsourcefile(type(obj))
        except TypeError:
            source = None
        if source:
            folders.add(Path(source).parent)
        else:
            digest.update(type(obj).__qualname__.encode())
    for folder in sorted(folders):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.read_bytes())


def _data_files(name: str, script: Path | None) -> list[Path]:
    """Data a provider's answers depend on besides its code."""
    if name == "scripted":
        return [script] if script is not None else []
    if name == "local":
        try:
            from pipeline.providers.local.examples import examples_path
        except ImportError:
            return []
        return [examples_path()]
    return []


def _fingerprint(name: str, providers: Providers, script: Path | None) -> str:
    """What identifies a provider's behaviour beyond its model name and prompts.

    A provider may declare `fingerprint` (a string, or a method returning one); otherwise it is
    the hash of its package's code and the data files it reads, so editing the local
    classifier or its examples never replays a stale cached answer.
    """
    declared = getattr(providers.classifier, "fingerprint", None)
    if callable(declared):
        declared = declared()
    if isinstance(declared, str) and declared:
        return declared
    digest = hashlib.sha256()
    _code_hash(digest, providers.classifier, providers.responder)
    for path in _data_files(name, script):
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


class ProviderPool:
    """Builds each (provider, variant) once, on first use, from any thread."""

    def __init__(
        self,
        script: Path | None = None,
        options: Mapping[str, Mapping[str, str]] | None = None,
        factory: Factory = make_providers,
        cassette: Path | None = None,
    ) -> None:
        self._script = script
        self._cassette = cassette
        self._stack = ExitStack()
        self._options = {k: dict(v) for k, v in (options or {}).items()}
        self._factory = factory
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

    def close(self) -> None:
        """Leave any cassette the providers were bound to."""
        self._stack.close()

    def _build(self, name: str, variant: dict[str, str]) -> Bound:
        library = default_library(variant)
        if name == DETERMINISTIC:
            return Bound(name, DETERMINISTIC_LABEL, "", "", None, None, library, variant)
        providers = self._make(name, library, variant)
        warm_up = getattr(providers.classifier, "warm_up", None)
        if callable(warm_up):
            warm_up()  # load a model now, not inside the first case's latency
        model = str(getattr(providers.classifier, "model", "") or "")
        cassette = self._cassette if name == "claude" else None
        label = _label(name, providers.label, model)
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
            model=model,
            fingerprint=_fingerprint(name, providers, self._script),
            classifier=providers.classifier,
            responder=providers.responder,
            library=library,
            variant=variant,
            cassette=str(cassette) if cassette is not None else None,
        )

    def _make(self, name: str, library: PromptLibrary, variant: dict[str, str]) -> Providers:
        options: dict[str, Any] = dict(self._options.get(name, {}))
        if name == "scripted":
            return self._factory(name, script=self._script, **options)
        if name == "claude" and self._cassette is not None:
            from evals.cassettes.session import cassette_claude

            session = self._stack.enter_context(
                cassette_claude(
                    self._cassette,
                    mode="replay",
                    rerecord=f"converse record (cassette {self._cassette})",
                    library=library,
                    overrides=variant,
                    **options,
                )
            )
            providers: Providers = session.providers
            return providers
        try:
            return self._factory(name, script=self._script, library=library, **options)
        except TypeError as exc:
            if "library" not in str(exc):
                raise
        if variant:
            raise ConverseError(
                f"the {name} provider does not take prompt versions",
                "drop --prompt for this provider",
            )
        return self._factory(name, script=self._script, **options)
