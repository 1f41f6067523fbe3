"""Compaction summaries written by the embedded model, constrained to the summary schema."""

from __future__ import annotations

from typing import Any

from pipeline.errors import ProviderError
from pipeline.providers.local_llm.runtime import Engine, GenerationFailed, Message
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.summarize import (
    SUMMARY_SCHEMA,
    SUMMARY_SCHEMA_NAME,
    SummarizeRequest,
    Summary,
    read_summary,
    summary_prompt,
)

_FORMAT: dict[str, Any] = {
    "type": "json_schema",
    "json_schema": {"name": SUMMARY_SCHEMA_NAME, "schema": SUMMARY_SCHEMA},
}


class LocalLLMSummarizer:
    """Folds older turns into a summary with the embedded model (offline)."""

    name = PROVIDER

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def summarize(self, request: SummarizeRequest) -> Summary:
        """One constrained completion; ProviderError when it is unusable."""
        messages: list[Message] = [
            {"role": "system", "content": request.instructions},
            {"role": "user", "content": summary_prompt(request)},
        ]
        try:
            answer = self._engine.chat(
                messages,
                max_tokens=request.budget_tokens + 200,  # room for the facts and the JSON
                response_format=_FORMAT,
            )
        except GenerationFailed as exc:
            raise ProviderError(str(exc), "the turns stay whole; compaction tries again") from exc
        return read_summary(
            answer.text,
            method=f"{PROVIDER} {self._engine.weights.label}",
            usage=answer.usage,
            truncated=answer.finish_reason == "length",
        )
