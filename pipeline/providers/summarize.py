"""Summarizers: what compaction asks a model (or no model) to do with a conversation's older
turns. Claude and the embedded generative model summarize with the `compaction` templates;
the extractive summarizer needs no model and keeps what the person said, newest first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from pipeline.domain import HistoryTurn, PromptRef, Role, Usage


@dataclass(frozen=True)
class SummarizeRequest:
    """The turns to fold (oldest first), the summary they extend, and the instructions."""

    turns: tuple[HistoryTurn, ...]
    previous_summary: str
    instructions: str  # the rendered compaction template: the summarizer's system prompt
    budget_tokens: int
    operator_name: str
    prompt_refs: tuple[PromptRef, ...] = ()


@dataclass(frozen=True)
class Summary:
    """A summary that replaces the folded turns, and durable personal facts found in them
    (stored as held assertions for the person to confirm, never committed)."""

    text: str
    facts: tuple[str, ...] = ()
    method: str = ""  # provider and model, for the compaction row
    usage: Usage = field(default_factory=Usage)


@runtime_checkable
class Summarizer(Protocol):
    """Folds older turns and the previous summary into one summary."""

    name: str

    def summarize(self, request: SummarizeRequest) -> Summary:
        """Summarize; raises ProviderError when no summary can be had."""
        ...


CHARS_PER_TOKEN = 4


class ExtractiveSummarizer:
    """No model: the previous summary, then what the person said in the folded turns, cut
    from the oldest end to the budget. Labelled `extractive (no model)` wherever it is used."""

    name = "extractive"

    def summarize(self, request: SummarizeRequest) -> Summary:
        """The person's own words, newest kept when the budget runs out."""
        said = [
            f"- {request.operator_name} said: {' '.join(t.content.split())}"
            for t in request.turns
            if t.role is Role.OPERATOR and t.content.strip()
        ]
        previous = request.previous_summary.strip()
        lines = ([previous] if previous else []) + said
        budget = request.budget_tokens * CHARS_PER_TOKEN
        kept: list[str] = []
        size = 0
        for line in reversed(lines):
            if size + len(line) + 1 > budget:
                break
            kept.append(line)
            size += len(line) + 1
        return Summary(text="\n".join(reversed(kept)), method="extractive (no model)")
