"""Summarizers: what compaction asks a model (or no model) to do with a conversation's older
turns. Claude and the embedded generative model summarize with the `compaction` templates;
the extractive summarizer needs no model and keeps what the person said, newest first."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.domain import HistoryTurn, PromptRef, Role, Usage
from pipeline.errors import ProviderError
from pipeline.prompting import fence


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


@runtime_checkable
class TokenCounter(Protocol):
    """A summarizer whose model can count tokens (Claude's `messages.count_tokens`):
    compaction then measures its threshold with the model's count, not the estimate."""

    def count_tokens(self, turns: Sequence[HistoryTurn]) -> int:
        """The tokens the turns take as the model reads them; ProviderError when the count
        cannot be had (compaction then falls back to the estimate)."""
        ...


CHARS_PER_TOKEN = 4
MIN_WORDS = 3  # the extractive summary keeps what the person said in at least this many words
# One bullet of the extractive summary: who spoke, and what they said.
SPOKEN = "- {name} said: {text}"
_SPOKEN_MARK = re.compile(r"^(?:[-*•]\s*)?(?:[^:]{1,60} said:\s*)?")


def without_speaker(line: str) -> str:
    """A summary line without the extractive summary's bullet and speaker ("- Ana said: ")."""
    return _SPOKEN_MARK.sub("", line)


class ExtractiveSummarizer:
    """No model: the previous summary, then what the person said in the folded turns, cut
    from the oldest end to the budget. Labelled `extractive (no model)` wherever it is used."""

    name = "extractive"

    def summarize(self, request: SummarizeRequest) -> Summary:
        """The person's own words, newest kept when the budget runs out."""
        said = [
            SPOKEN.format(name=request.operator_name, text=" ".join(t.content.split()))
            for t in request.turns
            # "yes", "ok thanks": a reply too short to stand alone says nothing in a summary
            if t.role is Role.OPERATOR and len(t.content.split()) >= MIN_WORDS
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


# --- what model summarizers are asked for, and how their answers are read --------------------

SUMMARY_SCHEMA_NAME = "conversation_summary"
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string", "description": "The summary that replaces the turns."},
        "facts": {
            "type": "array",
            "items": {"type": "string"},
            "maxItems": 3,
            "description": "Durable personal facts, second person, self-contained.",
        },
    },
    "required": ["summary", "facts"],
    "additionalProperties": False,
}


class SummaryAnswer(BaseModel):
    """A model's answer, validated: a non-empty summary and at most three facts."""

    model_config = ConfigDict(extra="forbid")

    summary: str = Field(min_length=1)
    facts: list[str] = Field(default_factory=list, max_length=3)


def summary_prompt(request: SummarizeRequest) -> str:
    """The user message a model summarizer gets: the previous summary and the turns to fold,
    fenced as supplied text (the turns are people's words, never instructions)."""
    turns = "\n".join(
        f"{'Person' if t.role is Role.OPERATOR else 'Companion'}: {t.content}"
        for t in request.turns
    )
    previous = request.previous_summary.strip() or "(none: this is the first summary)"
    return (
        f"Previous summary:\n{fence(previous, 'previous_summary')}\n\n"
        f"Turns to fold into it, oldest first:\n{fence(turns, 'turns')}\n\n"
        "Answer with the JSON object: the new summary, and the durable facts (or none)."
    )


def read_summary(text: str, *, method: str, usage: Usage, truncated: bool) -> Summary:
    """A model's JSON answer as a Summary; ProviderError (one line) when it is unusable."""
    hint = "the turns stay whole and the next turn tries to compact again"
    if truncated:
        raise ProviderError("the summary was cut off at its token limit", hint)
    try:
        answer = SummaryAnswer.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ProviderError(
            f"the summary answer is unusable ({exc.__class__.__name__})", hint
        ) from exc
    facts = tuple(f.strip() for f in answer.facts if f.strip())
    return Summary(answer.summary.strip(), facts, method=method, usage=usage)
