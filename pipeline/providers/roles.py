"""What the model providers' roles share (Claude, OpenAI-compatible, local-llm).

A role holds the client it calls and the provider's settings, and names its model from one
settings field. A failed call becomes what the pipeline does instead: a classifier degrades
to conversation with the error (`ClassifierRole.failed`, `read_answer`); a responder,
summarizer or structured generator raises ProviderError whose hint says what happens next
(`AsProviderError`).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import ValidationError

from pipeline.domain import PromptRef, Usage
from pipeline.errors import ProviderError
from pipeline.prompting import PromptLibrary
from pipeline.providers.answers import degraded, validated_acts
from pipeline.providers.intent_schema import IntentAnswer, classification, first_error
from pipeline.reading import ClassifiedIntent

ClientT = TypeVar("ClientT")
SettingsT = TypeVar("SettingsT")

# What happens instead when a role's call fails, as its ProviderError says.
REPLY_FALLBACK = "the companion answered with an offline reply; memory was handled as classified"
SUMMARY_FALLBACK = "the turns stay whole; compaction tries again"
STRUCTURED_FALLBACK = "the conversation stays open; close it again"


class AsProviderError:
    """`with AsProviderError(Failure, hint):` a `Failure` raised inside becomes a ProviderError
    with its message and `hint`; anything else passes through."""

    def __init__(self, failure: type[Exception], hint: str) -> None:
        self._failure = failure
        self._hint = hint

    def __enter__(self) -> None:
        return None

    # returns None, never True: no exception is swallowed (so a `return` inside needs none after)
    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(exc, self._failure):
            raise ProviderError(str(exc), self._hint) from exc


class ClientRole(Generic[ClientT, SettingsT]):
    """A role that calls a model through `client` under the provider's `settings`."""

    name: str
    # The settings field that names this role's model.
    model_field: ClassVar[str] = "model"

    def __init__(self, client: ClientT, settings: SettingsT) -> None:
        self._client = client
        self._settings = settings

    @property
    def model(self) -> str:
        """The configured model of this role."""
        return str(getattr(self._settings, self.model_field))


class ClassifierRole(ClientRole[ClientT, SettingsT]):
    """A classifier: reads the classifier templates from `library`, and never raises for
    anything the server or the model does."""

    def __init__(self, client: ClientT, settings: SettingsT, library: PromptLibrary) -> None:
        super().__init__(client, settings)
        self._library = library

    def failed(self, exc: Exception, refs: tuple[PromptRef, ...]) -> ClassifiedIntent:
        """The classification of a call that failed: conversation, with why."""
        return degraded(str(exc), provider=self.name, model=self.model, prompt_refs=refs)

    def answered(
        self,
        problem: str,
        raw: Any,
        what: str,
        *,
        model: str,
        refs: tuple[PromptRef, ...],
        usage: Usage,
    ) -> ClassifiedIntent:
        """`read_answer` of a call that returned: this classifier's provider, the model the
        server says answered, the prompts and the call's usage on the classification."""
        return read_answer(
            problem, raw, what, provider=self.name, model=model, prompt_refs=refs, usage=usage
        )


def read_answer(problem: str, raw: Any, what: str, **meta: Any) -> ClassifiedIntent:
    """The classification in a model's answer `raw`, or the degraded one saying what was
    wrong: `problem` (why there is no usable answer), or `what` (the answer, named as the
    request shape calls it) not matching the schema. `meta` goes on either."""
    if problem:
        return degraded(problem, **meta)
    if isinstance(raw, dict) and "acts" in raw:  # a classifier version that reads acts
        return validated_acts(raw["acts"], **meta)
    try:
        parsed = IntentAnswer.model_validate(raw)
    except ValidationError as exc:
        return degraded(f"{what} does not match its schema: {first_error(exc)}", **meta)
    return classification(parsed, **meta)
