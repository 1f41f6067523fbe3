"""The embedded model writes a compaction summary: real generation with SmolLM2, constrained
to the summary schema and read into a Summary (its quality is not what this tests)."""

from __future__ import annotations

from pipeline.domain import HistoryTurn, Role
from pipeline.providers.base import Providers
from pipeline.providers.summarize import SummarizeRequest
from tests.local_llm.conftest import needs_runtime


@needs_runtime
def test_a_summary_in_the_schema_from_real_generation(small: Providers) -> None:
    assert small.summarizer is not None
    summary = small.summarizer.summarize(
        SummarizeRequest(
            turns=(
                HistoryTurn(role=Role.OPERATOR, content="My car is at the shop until Friday."),
                HistoryTurn(role=Role.COMPANION, content="That's a long wait. How will you cope?"),
                HistoryTurn(role=Role.OPERATOR, content="I'll take the bus to work."),
            ),
            previous_summary="",
            instructions="Summarise the conversation in one sentence. List no facts.",
            budget_tokens=100,
            operator_name="ana",
        )
    )
    assert summary.text.strip()
    assert len(summary.facts) <= 3
    assert summary.method.startswith("local-llm ")
    assert summary.usage.input_tokens > 0
