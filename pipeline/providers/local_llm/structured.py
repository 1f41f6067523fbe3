"""Structured answers from the embedded model: the request's schema becomes a llama.cpp
grammar (the same JSON-schema path the classifier and summarizer use)."""

from __future__ import annotations

from pipeline.providers.local_llm.roles import EngineRole
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.roles import STRUCTURED_FALLBACK
from pipeline.providers.structured import StructuredAnswer, StructuredRequest


class LocalLLMStructured(EngineRole):
    """One constrained completion per request (offline)."""

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """The model's JSON text; ProviderError when llama.cpp refuses the request."""
        answer = self.constrained(
            request.system,
            request.user,
            max_tokens=request.max_tokens,
            schema_name=request.schema_name,
            schema=request.schema,
            hint=STRUCTURED_FALLBACK,
        )
        return StructuredAnswer(
            text=answer.text,
            method=f"{PROVIDER} {self.model}",
            usage=answer.usage,
            truncated=answer.finish_reason == "length",
        )
