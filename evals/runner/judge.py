"""The compaction rubric: Claude grades a summary item by item and for faithfulness.

Only a Claude summarizer lends a judge (its SDK client, so a live key, the loopback server or a
replayed cassette answer the judge exactly as they answer the summary). Any other provider's
rows carry `rubric.skipped` with the reason, and the phrase checks alone decide them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.domain import PromptRef, Usage
from pipeline.errors import ProviderError
from pipeline.prompting import PromptLibrary, fence
from pipeline.providers import StructuredRequest, Summarizer

FAMILY = "compaction/judge"
SCHEMA_NAME = "grade_summary"
SKIPPED = (
    "rubric skipped: it is judged by Claude (--provider claude, with ANTHROPIC_API_KEY or a "
    "recorded cassette); the phrase checks alone decide this row"
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "number": {"type": "integer"},
                    "present": {"type": "boolean"},
                    "evidence": {"type": "string"},
                },
                "required": ["number", "present", "evidence"],
                "additionalProperties": False,
            },
        },
        "faithful": {"type": "boolean"},
        "unsupported": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["items", "faithful", "unsupported"],
    "additionalProperties": False,
}


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: int
    present: bool
    evidence: str = ""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[_Item]
    faithful: bool
    unsupported: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class Item:
    """One item to grade: its kind and the phrase that names it (the first alternative)."""

    kind: str
    text: str


@dataclass(frozen=True)
class Rubric:
    """The judge's verdicts: one per item, in the order asked, and faithfulness."""

    present: tuple[bool, ...]
    evidence: tuple[str, ...]
    faithful: bool
    unsupported: tuple[str, ...]
    model: str
    usage: Usage
    ref: PromptRef | None = None

    def as_dict(self, items: Sequence[Item]) -> dict[str, Any]:
        """JSON-ready, each verdict beside its item."""
        return {
            "judge": self.model,
            "items": [
                {"kind": i.kind, "item": i.text, "present": p, "evidence": e}
                for i, p, e in zip(items, self.present, self.evidence, strict=True)
            ],
            "faithful": self.faithful,
            "unsupported": list(self.unsupported),
        }


def grading_prompt(transcript: str, summary: str, items: Sequence[Item]) -> str:
    """The judge's user message: everything it grades, fenced as data."""
    listed = "\n".join(f"{n}. ({i.kind}) {i.text}" for n, i in enumerate(items, start=1))
    return (
        f"The conversation:\n{fence(transcript, 'conversation')}\n\n"
        f"The summary:\n{fence(summary, 'summary')}\n\n"
        f"The items it must keep:\n{fence(listed, 'items')}\n\n"
        "Answer with the JSON object."
    )


def read_rubric(text: str, count: int, *, model: str, usage: Usage) -> Rubric:
    """The judge's JSON answer, one verdict for each item; ProviderError when unusable."""
    hint = "the row is an error; rerun it with --retry-errors"
    try:
        answer = _Answer.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ProviderError(
            f"the judge's answer is unusable ({exc.__class__.__name__})", hint
        ) from exc
    verdicts = {i.number: i for i in answer.items}
    missing = [n for n in range(1, count + 1) if n not in verdicts]
    if missing:
        raise ProviderError(f"the judge gave no verdict for item(s) {missing}", hint)
    ordered = [verdicts[n] for n in range(1, count + 1)]
    return Rubric(
        present=tuple(i.present for i in ordered),
        evidence=tuple(i.evidence for i in ordered),
        faithful=answer.faithful,
        unsupported=tuple(u for u in answer.unsupported if u.strip()),
        model=model,
        usage=usage,
    )


class ClaudeJudge:
    """Grades with the Claude summarizer's client and responder model, one Messages call."""

    def __init__(self, summarizer: Any, library: PromptLibrary) -> None:
        self._client = summarizer.client
        self._settings = summarizer.settings
        self._library = library

    def grade(self, transcript: str, summary: str, items: Sequence[Item]) -> Rubric:
        """The rubric for one summary; ProviderError when the call or its answer fails."""
        from pipeline.providers.claude import CallFailed, structured_call

        template = self._library.render(FAMILY)
        request = StructuredRequest(
            system=template.text,
            user=grading_prompt(transcript, summary, items),
            schema_name=SCHEMA_NAME,
            schema=SCHEMA,
            max_tokens=200 + 120 * len(items),
            prompt_refs=(template.ref,),
        )
        try:
            answer = structured_call(self._client, self._settings, request, "Grade the summary.")
        except CallFailed as exc:
            raise ProviderError(
                f"the judge call failed: {exc}", "rerun with --retry-errors"
            ) from exc
        if answer.truncated:
            raise ProviderError("the judge's answer was cut off at its token limit", "")
        graded = read_rubric(answer.text, len(items), model=answer.model, usage=answer.usage)
        return replace(graded, ref=template.ref)


def judge_for(summarizer: Summarizer | None, library: PromptLibrary) -> ClaudeJudge | None:
    """A judge when the summarizer is Claude's, else None (the rubric is skipped)."""
    if summarizer is None or getattr(summarizer, "name", "") != "claude":
        return None
    if not hasattr(summarizer, "client") or not hasattr(summarizer, "settings"):
        return None
    return ClaudeJudge(summarizer, library)
