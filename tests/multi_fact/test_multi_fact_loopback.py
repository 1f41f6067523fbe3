"""Multi-fact extraction on Claude, against the loopback server (scripted, synthetic answers):
the request shape each model takes, the message fenced as data, and a malformed answer retried
once, then recorded with the labelled splitter used instead."""

from __future__ import annotations

import json
from typing import Any

import pytest

from evals.loopback import Answer
from evals.loopback.structured import loopback_structured
from pipeline.conversations.stages import FALLBACK, RETRY_NOTE
from pipeline.english import ENGLISH
from pipeline.extraction import Extracted, extract_facts
from pipeline.prompting import default_library

TEMPLATE = "picking out the durable personal facts"
MESSAGE = "A bit about me: I'm allergic to cats, and my sister Priya lives in Leeds."
GOOD = {
    "facts": [
        {"text": "Your sister Priya lives in Leeds", "category": "family", "importance": 2},
        {"text": "You're allergic to cats", "category": "health", "importance": 5},
    ]
}


def _extract(answers: list[Answer], model: str) -> tuple[Extracted, list[dict[str, Any]]]:
    with loopback_structured(answers, model) as (generator, sent):
        found = extract_facts(
            MESSAGE,
            operator_name="Ana",
            library=default_library(),
            generator=generator,
            lexicon=ENGLISH,
        )
        return found, sent


@pytest.mark.parametrize(
    ("model", "forced"), [("claude-sonnet-5-5", False), ("claude-sonnet-4-6", True)]
)
def test_the_answer_is_read_in_the_models_request_shape(model: str, forced: bool) -> None:
    got, sent = _extract(
        [Answer(kind="classify", system_contains=TEMPLATE, tool_input=GOOD)], model
    )
    assert got.facts == ("You're allergic to cats", "Your sister Priya lives in Leeds")
    assert got.method.startswith("claude ") and got.first_pass_failures == 0
    (body,) = sent
    assert ("tools" in body) is forced
    assert "<untrusted" in json.dumps(body["messages"]) and "Priya" in json.dumps(body["messages"])


def test_two_malformed_answers_leave_the_splitter_labelled_and_the_error_recorded() -> None:
    bad = Answer(kind="classify", system_contains=TEMPLATE, tool_input={"facts": "cats"})
    got, sent = _extract([bad], "claude-sonnet-4-6")
    assert len(sent) == 2 and sent[1]["messages"][-1]["content"].endswith(RETRY_NOTE)
    assert got.method == f"sentence splitter ({FALLBACK})"
    assert got.record is not None and got.record.error is not None
    # The loopback names its answers synthetic: no result here passes for a real model's.
    assert got.record.error.startswith("claude synthetic-fixture gave no usable facts answer")
    assert got.facts == ("You're allergic to cats", "Your sister Priya lives in Leeds")
