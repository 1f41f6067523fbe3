"""The embedded model's tools with real generation (SmolLM2-135M): the decision is a
grammar-constrained JSON answer whatever the model writes, a decided status goes through the
toolbox, and a turn through converse() stores what the toolbox accepted and nothing else."""

from __future__ import annotations

import json

import pytest

from pipeline.converse import converse
from pipeline.providers.base import Providers
from pipeline.providers.local_llm.tools import Decision, decision_format, parse_decision
from pipeline.store import Store
from pipeline.store.people import create_person
from pipeline.store.status import current_notes
from tests.local_llm.conftest import needs_runtime

pytestmark = needs_runtime

STATUS = "The car is at the shop until Friday."


def test_the_decision_is_constrained_json_and_a_status_turn_stores_what_was_decided(
    small: Providers, sqlite_store: Store
) -> None:
    with sqlite_store.write() as session:
        person = create_person(session, "Ana")
    outcome = converse(sqlite_store, person="Ana", message=STATUS, providers=small)
    engine = small.classifier.engine  # type: ignore[attr-defined]
    assert outcome.reply.provider == "local-llm" and outcome.reply.text
    # the decision call came before the reply: its usage is in the reply's
    assert outcome.reply.usage.input_tokens > 0
    tools = outcome.companion_turn.meta["responder"].get("tools", [])
    with sqlite_store.read() as session:
        stored = current_notes(session, person.id)
    # Whatever the small model decided, what was stored is exactly what the toolbox accepted.
    accepted = [c for c in tools if c["name"] == "update_status" and c["ok"]]
    assert len(stored) == len(accepted) == len(outcome.status_notes)
    for note in stored:
        assert note.topic and note.text and note.source_turn_id == outcome.operator_turn.id
    assert engine.last is not None


def test_a_grammar_constrained_decision_parses(small: Providers) -> None:
    engine = small.classifier.engine  # type: ignore[attr-defined]
    answer = engine.chat(
        [
            {"role": "system", "content": "Decide. Answer with JSON only."},
            {"role": "user", "content": STATUS},
        ],
        max_tokens=120,
        response_format=decision_format(),
    )
    if answer.finish_reason != "length":
        decided = parse_decision(answer.text)
        assert isinstance(decided, Decision), decided
        assert set(json.loads(answer.text)) in (
            {"action"},
            {"action", "topic", "text"},
            {"action", "query"},
        )


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("not json", "not valid JSON"),
        ('{"action": "fly"}', "does not match its schema"),
        ('{"action": "none", "extra": 1}', "does not match its schema"),
    ],
)
def test_a_malformed_decision_is_named_not_raised(text: str, wanted: str) -> None:
    result = parse_decision(text)
    assert isinstance(result, str) and wanted in result
