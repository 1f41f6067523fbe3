"""Compaction summaries written by the embedded model, constrained to the summary schema."""

from __future__ import annotations

from pipeline.providers.local_llm.roles import EngineRole
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.roles import SUMMARY_FALLBACK
from pipeline.providers.summarize import (
    SUMMARY_SCHEMA,
    SUMMARY_SCHEMA_NAME,
    SummarizeRequest,
    Summary,
    read_summary,
    summary_prompt,
)


class LocalLLMSummarizer(EngineRole):
    """Folds older turns into a summary with the embedded model (offline)."""

    def summarize(self, request: SummarizeRequest) -> Summary:
        """One constrained completion; ProviderError when it is unusable."""
        answer = self.constrained(
            request.instructions,
            summary_prompt(request),
            max_tokens=request.budget_tokens + 200,  # room for the facts and the JSON
            schema_name=SUMMARY_SCHEMA_NAME,
            schema=SUMMARY_SCHEMA,
            hint=SUMMARY_FALLBACK,
        )
        return read_summary(
            answer.text,
            method=f"{PROVIDER} {self.model}",
            usage=answer.usage,
            truncated=answer.finish_reason == "length",
        )
