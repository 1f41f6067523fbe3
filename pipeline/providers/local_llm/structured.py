"""Structured answers from the embedded model: the request's schema becomes a llama.cpp
grammar (the same JSON-schema path the classifier and summarizer use)."""

from __future__ import annotations

from pipeline.errors import ProviderError
from pipeline.providers.local_llm.runtime import Engine, GenerationFailed, Message
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.structured import StructuredAnswer, StructuredRequest


class LocalLLMStructured:
    """One constrained completion per request (offline)."""

    name = PROVIDER

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """The model's JSON text; ProviderError when llama.cpp refuses the request."""
        messages: list[Message] = [
            {"role": "system", "content": request.system},
            {"role": "user", "content": request.user},
        ]
        try:
            answer = self._engine.chat(
                messages,
                max_tokens=request.max_tokens,
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": request.schema_name, "schema": request.schema},
                },
            )
        except GenerationFailed as exc:
            raise ProviderError(str(exc), "the conversation stays open; close it again") from exc
        return StructuredAnswer(
            text=answer.text,
            method=f"{PROVIDER} {self._engine.weights.label}",
            usage=answer.usage,
            truncated=answer.finish_reason == "length",
        )
