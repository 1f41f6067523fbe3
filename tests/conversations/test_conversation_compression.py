"""The compression stages: the deterministic fallbacks (no model), and a model's answers
validated with one retry, then a recorded error and the labelled fallback."""

from __future__ import annotations

import json

from pipeline.conversation_models import (
    YOUR_STORY,
    Entities,
    NarrativeAnswer,
    OpenItem,
    sentence_count,
)
from pipeline.conversations import fallback
from pipeline.conversations.compress import CompressionInput, compress
from pipeline.conversations.stages import FALLBACK, RETRY_NOTE
from pipeline.english import ENGLISH
from pipeline.prompting import default_library
from tests.conversations.helpers import FakeModel

TURNS = (
    (
        "operator",
        "I decided to prioritise recurring events before the Scene UI because it unblocks the frontend.",
    ),
    ("companion", "That sounds sensible."),
    ("operator", "I'm still waiting on Alex for the contract feedback."),
    ("operator", "I'm not sure which calendar format handles recurrence best."),
    ("operator", "My sister Maya visits next week."),
)
GOOD_ENTITIES = {
    "people": [{"name": "Alex", "context": "contract feedback", "relation": "colleague"}],
    "tasks": [],
    "decisions": [{"what": "recurring events before the Scene UI", "why": "unblocks the frontend"}],
    "waiting_on": [{"who": "Alex", "what": "contract feedback", "since": ""}],
    "questions_resolved": [],
    "questions_opened": [{"question": "which calendar format handles recurrence best"}],
    "blockers_cleared": [],
    "insights": [],
}
NARRATIVE = (
    "Ana chose recurring events before the Scene UI, which unblocks the frontend. "
    "She is waiting on Alex's contract feedback."
)


def test_the_fallback_finds_what_the_person_said_plainly() -> None:
    found = fallback.entities(TURNS)
    assert [d.what for d in found.decisions] == ["prioritise recurring events before the Scene UI"]
    assert found.decisions[0].why == "it unblocks the frontend"
    assert [(w.who, w.what) for w in found.waiting_on] == [("Alex", "the contract feedback")]
    assert [q.question for q in found.questions_opened] == [
        "which calendar format handles recurrence best"
    ]
    assert {(p.name, p.relation) for p in found.people} == {("Maya", "sister"), ("Alex", "")}
    assert not found.tasks and not found.insights  # nothing said of them: nothing invented


def test_a_promise_someone_made_the_person_is_a_waiting_on() -> None:
    found = fallback.entities(
        [
            ("operator", "Lena knows two people. She's going to introduce me next week."),
            ("operator", "The office said they'd call me when the authorization comes through."),
            ("operator", "Priya will send us the floor plan."),
            ("operator", "I will call my mother tonight."),  # the person's own plan: not waiting
        ]
    )
    assert [(w.who, w.what) for w in found.waiting_on] == [
        ("She", "introduce me next week"),
        ("Priya", "send us the floor plan"),
    ]
    assert "She" not in {p.name for p in found.people}  # a pronoun is nobody's name


def test_the_fallback_does_not_take_a_negated_answer_for_a_resolved_question() -> None:
    said = [
        ("operator", "Still haven't figured out the backsplash tile."),
        ("operator", "We have not worked out the budget."),
        ("operator", "I figured out the grout colour: white."),
    ]
    found = fallback.entities(said)
    assert [q.question for q in found.questions_resolved] == ["the grout colour: white"]


def test_the_fallback_narrative_is_two_to_four_sentences_of_meaning() -> None:
    found = fallback.entities(TURNS)
    text = fallback.narrative(found, TURNS, "Ana")
    assert 2 <= sentence_count(text) <= 4
    NarrativeAnswer(narrative=text)  # validates as a model's answer would
    assert "Ana decided: prioritise recurring events" in text
    assert "waiting on Alex" in text
    # Without entities: the person's own words, still 2-4 sentences.
    small = fallback.narrative(Entities.empty(), (("operator", "Lovely weather today"),), "Ana")
    assert 2 <= sentence_count(small) <= 4 and "Lovely weather today" in small


def test_the_fallback_resolves_only_what_was_plainly_settled() -> None:
    open_items = (
        OpenItem(id=7, kind="questions_opened", text="which calendar format handles recurrence"),
        OpenItem(id=8, kind="waiting_on", text="Alex: contract feedback"),
    )
    found = fallback.entities(
        (("operator", "I figured out which calendar format handles recurrence: iCalendar RRULE."),)
    )
    resolved = fallback.resolutions(open_items, found)
    assert [r.entity_id for r in resolved] == [7]


def test_the_fallback_routes_to_the_project_most_turns_were_in() -> None:
    where = fallback.routing((YOUR_STORY, "Garden"), {"Garden": 3}, "")
    assert where.destination == "Garden" and where.confidence == 1.0
    assert fallback.routing((YOUR_STORY, "Garden"), {}, "").destination == YOUR_STORY


def test_without_a_model_every_stage_is_labelled_deterministic() -> None:
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS, destinations=(YOUR_STORY, "Work")),
        default_library(),
        None,
        lexicon=ENGLISH,
    )
    assert {s.stage: s.method for s in got.stages} == {
        "entities": FALLBACK,
        "narrative": FALLBACK,
        "deltas": "nothing open (no call)",
        "routing": FALLBACK,
    }
    assert got.method.startswith(FALLBACK)


def _model(entities: list[str]) -> FakeModel:
    return FakeModel(
        answers={
            "conversation_entities": entities,
            "conversation_narrative": [json.dumps({"narrative": NARRATIVE})],
            "conversation_routing": [
                json.dumps({"destination": "work", "confidence": 0.8, "reasoning": "Alex is work"})
            ],
        }
    )


def test_a_model_answer_is_used_when_valid() -> None:
    model = _model([json.dumps(GOOD_ENTITIES)])
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS, destinations=(YOUR_STORY, "Work")),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    assert got.entities.waiting_on[0].who == "Alex"
    assert got.narrative == NARRATIVE
    assert got.routing.destination == "Work"  # spelled as the destination list spells it
    records = {s.stage: s for s in got.stages}
    assert records["entities"].method == "fake scripted" and records["entities"].attempts == 1
    assert records["entities"].prompt is not None
    assert records["entities"].prompt.family == "conversation_entities"
    # The transcript reached the model fenced as data.
    assert '<untrusted kind="transcript">' in model.sent[0].user
    assert "waiting on Alex" in model.sent[0].user


def test_a_malformed_answer_is_retried_once_and_the_second_one_used() -> None:
    model = _model(['{"people": "Alex"}', json.dumps(GOOD_ENTITIES)])
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    record = next(s for s in got.stages if s.stage == "entities")
    assert record.attempts == 2 and record.error is None and record.method == "fake scripted"
    retry = [r for r in model.sent if r.schema_name == "conversation_entities"][1]
    assert retry.user.endswith(RETRY_NOTE)
    assert "people" in retry.user  # the problem is named to the model


def test_two_unusable_answers_record_the_error_and_use_the_labelled_fallback() -> None:
    model = _model(["not json at all", json.dumps({**GOOD_ENTITIES, "mood": "happy"})])
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    record = next(s for s in got.stages if s.stage == "entities")
    assert record.attempts == 2
    assert record.method == FALLBACK
    assert record.error is not None
    assert "fake scripted gave no usable entities answer" in record.error
    assert "mood: Extra inputs are not permitted" in record.error
    assert "\n" not in record.error
    # The fallback's entities, not the rejected answers.
    assert [w.who for w in got.entities.waiting_on] == ["Alex"]


def test_a_narrative_outside_two_to_four_sentences_is_rejected() -> None:
    long = " ".join(f"Sentence {i} is here." for i in range(6))
    model = _model([json.dumps(GOOD_ENTITIES)])
    model.answers["conversation_narrative"] = [
        json.dumps({"narrative": long}),
        json.dumps({"narrative": "One."}),
    ]
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    record = next(s for s in got.stages if s.stage == "narrative")
    assert record.error is not None and "has 6 sentences" in record.error
    assert 2 <= sentence_count(got.narrative) <= 4


def test_the_delta_stage_may_only_resolve_listed_items() -> None:
    model = _model([json.dumps(GOOD_ENTITIES)])
    model.answers["conversation_deltas"] = [
        json.dumps({"resolved": [{"entity_id": 99, "reason": "done"}]}),
        json.dumps({"resolved": [{"entity_id": 5, "reason": "Alex sent it"}]}),
    ]
    got = compress(
        CompressionInput(
            operator_name="Ana",
            turns=TURNS,
            open_items=(OpenItem(id=5, kind="waiting_on", text="Alex: contract"),),
        ),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    assert [r.entity_id for r in got.resolved] == [5]
    record = next(s for s in got.stages if s.stage == "deltas")
    assert record.attempts == 2 and record.error is None
