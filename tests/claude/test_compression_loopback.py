"""The compression stages on Claude, against the loopback server: the request shape the model
takes (forced tool or structured output), the transcript fenced as data, the answers read,
and a malformed answer retried once, then recorded with the labelled fallback used."""

from __future__ import annotations

import json
from typing import Any

import pytest

from evals.loopback import Answer
from evals.loopback.structured import loopback_structured
from pipeline.conversation_models import YOUR_STORY, Extraction, OpenItem
from pipeline.conversations.compress import CompressionInput, compress
from pipeline.conversations.stages import FALLBACK, RETRY_NOTE
from pipeline.english import ENGLISH
from pipeline.prompting import default_library

# A phrase of each stage's template, so each answer serves only its stage's requests.
ENTITIES = "extracting what it holds"
NARRATIVE = "the memory a thoughtful friend would keep"
DELTAS = "updating the open threads"
ROUTING = "choosing where the memory"

GOOD_ENTITIES = {
    "people": [{"name": "Alex", "context": "contract feedback", "relation": "colleague"}],
    "tasks": [],
    "decisions": [{"what": "recurring events first", "why": "unblocks the frontend"}],
    "waiting_on": [{"who": "Alex", "what": "contract feedback", "since": ""}],
    "questions_resolved": [{"question": "Scene UI first?", "answer": "no"}],
    "questions_opened": [],
    "blockers_cleared": [],
    "insights": [],
}
NARRATIVE_TEXT = "Ana put recurring events first. She is waiting on Alex's contract feedback."
DATA = CompressionInput(
    operator_name="Ana",
    turns=(
        ("operator", "Recurring events come before the Scene UI. Still waiting on Alex."),
        ("companion", "Makes sense."),
    ),
    open_items=(OpenItem(id=4, kind="questions_opened", text="Scene UI first?"),),
    destinations=(YOUR_STORY, "Work"),
)


def _answers(entities: list[Answer]) -> list[Answer]:
    return [
        *entities,
        Answer(
            kind="classify", system_contains=NARRATIVE, tool_input={"narrative": NARRATIVE_TEXT}
        ),
        Answer(
            kind="classify",
            system_contains=DELTAS,
            tool_input={"resolved": [{"entity_id": 4, "reason": "answered: no"}]},
        ),
        Answer(
            kind="classify",
            system_contains=ROUTING,
            tool_input={"destination": "Work", "confidence": 0.7, "reasoning": "Alex is at work"},
        ),
    ]


def _compress(answers: list[Answer], model: str) -> tuple[Extraction, list[dict[str, Any]]]:
    with loopback_structured(answers, model) as (generator, sent):
        return compress(DATA, default_library(), generator, lexicon=ENGLISH), sent


@pytest.mark.parametrize(
    ("model", "forced"), [("claude-sonnet-5-5", False), ("claude-sonnet-4-6", True)]
)
def test_every_stage_is_answered_in_the_models_request_shape(model: str, forced: bool) -> None:
    got, sent = _compress(
        _answers([Answer(kind="classify", system_contains=ENTITIES, tool_input=GOOD_ENTITIES)]),
        model,
    )
    assert got.entities.waiting_on[0].who == "Alex"
    assert got.narrative == NARRATIVE_TEXT
    assert [r.entity_id for r in got.resolved] == [4]
    assert got.routing.destination == "Work" and got.routing.confidence == 0.7
    assert all(s.method.startswith("claude ") and s.error is None for s in got.stages)
    assert len(sent) == 4
    for body in sent:
        assert ("tools" in body) is forced
        assert ("format" in body.get("output_config", {})) is not forced
    first = json.dumps(sent[0]["messages"])
    assert "Recurring events come before the Scene UI" in first and "<untrusted" in first
    # The delta stage may name only the open items; routing only the listed destinations.
    schemas = [
        b["tools"][0]["input_schema"] if forced else b["output_config"]["format"]["schema"]
        for b in sent
    ]
    assert schemas[2]["$defs"]["Resolution"]["properties"]["entity_id"]["enum"] == [4]
    assert schemas[3]["properties"]["destination"]["enum"] == [YOUR_STORY, "Work"]


def test_a_malformed_answer_is_retried_once() -> None:
    got, sent = _compress(
        _answers(
            [
                Answer(kind="classify", system_contains=ENTITIES, tool_input={"people": "Alex"}),
                Answer(
                    kind="classify",
                    system_contains=ENTITIES,
                    message=RETRY_NOTE,
                    tool_input=GOOD_ENTITIES,
                ),
            ]
        ),
        "claude-sonnet-4-6",
    )
    record = next(s for s in got.stages if s.stage == "entities")
    assert record.attempts == 2 and record.error is None
    assert got.entities.decisions[0].what == "recurring events first"
    retry = sent[1]["messages"][-1]["content"]
    assert retry.endswith(RETRY_NOTE) and "people" in retry


def test_two_malformed_answers_are_recorded_and_the_fallback_labelled() -> None:
    got, sent = _compress(
        _answers(
            [Answer(kind="classify", system_contains=ENTITIES, tool_input={"people": "Alex"})]
        ),
        "claude-sonnet-4-6",
    )
    record = next(s for s in got.stages if s.stage == "entities")
    assert record.attempts == 2 and record.method == FALLBACK
    assert record.error is not None
    # The loopback names its answers synthetic: no result here passes for a real model's.
    assert record.error.startswith("claude synthetic-fixture gave no usable entities answer")
    assert len(sent) == 5  # two for entities, one for each other stage
    # The other stages still ran on the model.
    assert next(s for s in got.stages if s.stage == "narrative").method.startswith("claude ")
