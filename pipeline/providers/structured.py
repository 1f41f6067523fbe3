"""Structured generation: a model asked for one JSON object in a given schema.

The conversation lifecycle's compression stages (pipeline/conversations/) ask through this
protocol; Claude and the embedded generative model lend an implementation through
`Providers.structured`, and a provider without one (the `local` baseline) leaves the stages
to their deterministic fallbacks. Answers are returned as text: validating them is the
caller's job, so a malformed answer can be retried and its error recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pipeline.domain import PromptRef, Usage


@dataclass(frozen=True)
class StructuredRequest:
    """A system prompt, the user message, and the JSON schema the answer must follow."""

    system: str
    user: str
    schema_name: str
    schema: dict[str, Any]
    max_tokens: int
    prompt_refs: tuple[PromptRef, ...] = ()


@dataclass(frozen=True)
class StructuredAnswer:
    """The answer's JSON text, which model wrote it, and whether it was cut off."""

    text: str
    method: str
    usage: Usage = field(default_factory=Usage)
    truncated: bool = False
    model: str = ""  # the model id the API answered with, where the provider knows it


@runtime_checkable
class StructuredGenerator(Protocol):
    """Answers a request with one JSON object; ProviderError when the call itself fails."""

    name: str

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """One call to the model."""
        ...
