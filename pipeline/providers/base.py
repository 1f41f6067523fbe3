"""The provider protocols (one to classify, one to respond) and the contract every provider
declares: what it is built from (ProviderOptions), what it is before it is built
(ProviderSpec) and what a built one is (Providers). docs/providers.md explains them."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pipeline.assemble import AssembledPrompt
from pipeline.domain import HistoryTurn, MemoryNote, Reply, RouteResult
from pipeline.errors import ConverseError
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.reading import ClassifiedIntent

if TYPE_CHECKING:
    from pipeline.memory.embeddings import Embedder
    from pipeline.prompting import PromptLibrary
    from pipeline.providers.structured import StructuredGenerator
    from pipeline.providers.summarize import Summarizer
    from pipeline.tools import Toolbox


@dataclass(frozen=True)
class ClassifyRequest:
    """What a classifier sees: the message, the earlier turns, and the project if any."""

    message: str
    history: tuple[HistoryTurn, ...] = ()
    project_name: str | None = None
    # Relevant conversation memories and open threads (pipeline/conversations/recall.py).
    memories: tuple[MemoryNote, ...] = ()

    @property
    def prior_companion(self) -> HistoryTurn | None:
        """The companion turn just before this message, if the last turn was the companion's."""
        if self.history and self.history[-1].role.value == "companion":
            return self.history[-1]
        return None


@dataclass(frozen=True)
class RespondRequest:
    """What a responder sees: the system prompt, the conversation, and what the handler did.

    `tools` are the turn's tools (status notes, deep recall) when the caller offers them; a
    responder that can use tools calls them through it (docs/memory.md, "Status notes")."""

    system: AssembledPrompt
    history: tuple[HistoryTurn, ...]
    message: str
    route: RouteResult
    project_name: str | None = None
    tools: Toolbox | None = None


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


@dataclass(frozen=True)
class ProviderOptions:
    """What every factory is given. `settings` are the provider's own (from
    `--provider-option NAME.KEY=VALUE`, so values may be strings); `library` is the prompt
    library with any `--prompt` overrides; `script` is the scripted provider's fixture."""

    settings: Mapping[str, Any] = field(default_factory=dict)
    library: PromptLibrary | None = None
    script: Path | None = None
    # SDK middleware for providers on the Anthropic wire (the eval runner's spending bound).
    middleware: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Providers:
    """A built provider: a classifier and a responder, and what callers need to know of them.

    `embedder` is the embedding model lent to the pipeline (semantic forget and recall), or
    None. `fingerprint` is what the eval answer cache keys on besides the model and prompts;
    left empty, it is the hash of the classifier's and responder's packages and `data_files`
    (files whose content the answers depend on). `warm_up` loads a model ahead of the first
    message, when there is one to load. `summarizer` writes compaction summaries with the
    provider's model (pipeline/compaction.py); None: the extractive one, no model.
    `structured` answers the conversation lifecycle's compression stages with the provider's
    model (pipeline/conversations/); None: their deterministic fallbacks, no model.
    `lexicon` is the conversation's words that name nothing, lent to keyword matching, recall
    and commit_knowledge (pipeline/lexicon.py); NO_LEXICON: every word counts.
    """

    classifier: Classifier
    responder: Responder
    label: str
    model: str = ""
    embedder: Embedder | None = None
    fingerprint: str = ""
    data_files: tuple[Path, ...] = ()
    warm_up: Callable[[], None] | None = None
    summarizer: Summarizer | None = None
    structured: StructuredGenerator | None = None
    lexicon: Lexicon = NO_LEXICON
    # sha256 of the model weights the answers come from ("" when there are none, or unknown)
    weights: str = ""

    @classmethod
    def of(
        cls,
        classifier: Classifier,
        responder: Responder,
        *,
        label: str = "",
        embedder: Embedder | None = None,
        summarizer: Summarizer | None = None,
        structured: StructuredGenerator | None = None,
        lexicon: Lexicon = NO_LEXICON,
    ) -> Providers:
        """A bundle from roles built by hand (a caller embedding the pipeline, a test), so that
        every turn is run through the one declared shape."""
        return cls(
            classifier,
            responder,
            label or getattr(classifier, "name", "") or type(classifier).__name__,
            embedder=embedder,
            summarizer=summarizer,
            structured=structured,
            lexicon=lexicon,
        )

    def __post_init__(self) -> None:
        if not self.fingerprint:
            digest = code_fingerprint(self.classifier, self.responder, files=self.data_files)
            object.__setattr__(self, "fingerprint", digest)


Factory = Callable[[ProviderOptions], Providers]


@dataclass(frozen=True)
class ProviderSpec:
    """One row of the registry: a provider's name, its factory, and what must be known before
    it is built (planning a run, refusing `--prompt`, needs no key and loads no model).

    `prompt_families` are the template families its answers read ("instructions" covers
    "instructions/<intent>"); `--prompt` is accepted only for those. `uses_cassettes`: its
    HTTP calls can be replayed from a recorded cassette.
    """

    name: str
    factory: Factory
    description: str
    prompt_families: tuple[str, ...] = ()
    uses_cassettes: bool = False

    def reads(self, family: str) -> bool:
        """Whether a `--prompt` for `family` can change this provider's answers."""
        return any(family == f or family.startswith(f"{f}/") for f in self.prompt_families)

    def check_prompt_families(self, families: Iterable[str]) -> None:
        """Refuse `--prompt` for a family this provider does not read: it could change no
        number, so a comparison of versions would be a comparison of nothing."""
        unread = sorted(f for f in families if not self.reads(f))
        if not unread:
            return
        if not self.prompt_families:
            raise ConverseError(
                f"--prompt does not apply to the {self.name} provider: it reads no prompt "
                "templates",
                "drop --prompt, or run it apart from the providers that read templates",
            )
        raise ConverseError(
            f"the {self.name} provider does not read the prompt families {', '.join(unread)}",
            f"it reads: {', '.join(self.prompt_families)}",
        )


def code_fingerprint(*objects: object, files: tuple[Path, ...] = ()) -> str:
    """sha256 of every module beside the ones defining `objects` (a provider's package), of
    the modules of the shared roles they build on (pipeline/providers/roles.py), and of
    `files`, so editing a provider's code or data never replays a stale cached answer."""
    digest = hashlib.sha256()
    folders: set[Path] = set()
    bases: set[Path] = set()
    for obj in objects:
        try:
            source = inspect.getsourcefile(type(obj))
        except TypeError:
            source = None
        if source:
            folders.add(Path(source).parent)
        else:
            digest.update(type(obj).__qualname__.encode())
        for base in type(obj).__mro__[1:]:
            if base.__module__.startswith("pipeline."):
                bases.add(Path(inspect.getfile(base)))
    for folder in sorted(folders):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.read_bytes())
    for path in sorted(bases - {p for folder in folders for p in folder.glob("*.py")}):
        digest.update(path.read_bytes())
    for path in files:
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()
