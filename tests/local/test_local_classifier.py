"""The local classifier on clear cases, continuations and low confidence (loads the model)."""

from __future__ import annotations

import pytest

from pipeline.domain import HistoryTurn, Role
from pipeline.providers.base import Classifier, ClassifyRequest, Responder
from pipeline.providers.local import LABEL, LocalClassifier, LocalResponder, local_providers

pytestmark = pytest.mark.slow


def ask(
    classifier: LocalClassifier, message: str, project: str | None = "Garden", *history: HistoryTurn
):  # type: ignore[no-untyped-def]
    return classifier.classify(
        ClassifyRequest(message=message, history=history, project_name=project)
    )


@pytest.mark.parametrize(
    ("message", "project", "intent"),
    [
        ("I'm allergic to peanuts", None, "remember_about_me"),
        ("my partner works nights on weekends", "Garden", "remember_about_me"),
        ("the raised beds get compost every spring", "Garden", "add_knowledge"),
        ("what did I tell you about the tomato spacing?", "Garden", "ask_about_past_input"),
        ("please forget that I have a cat", None, "forget_about_me"),
        ("delete the note about drip irrigation from this project", "Garden", "retract_knowledge"),
        ("show me all the notes for this project", "Garden", "list_knowledge"),
        ("lock in #2", "Garden", "commit_knowledge"),
        ("what sorts of things can you help me with?", None, "describe_capabilities"),
        ("how deep should I plant tulip bulbs?", "Garden", "general_conversation"),
        ("remind me to turn the compost on Saturday", "Garden", "set_reminder"),
    ],
)
def test_clear_cases(
    classifier: LocalClassifier, message: str, project: str | None, intent: str
) -> None:
    got = ask(classifier, message, project)
    assert got.intent == intent, got
    assert got.error is None
    assert got.confidence is not None and 0.0 < got.confidence <= 1.0


def test_result_names_the_provider_model_and_examples(classifier: LocalClassifier) -> None:
    got = ask(classifier, "Just so you know, I'm vegetarian")
    assert got.provider == "local"
    assert got.model.startswith("all-MiniLM-L6-v2 (onnx-int8:")
    assert got.params == {"personal_fact": "You're vegetarian"}
    assert got.prompt_refs[0].family == "local_model/examples"
    assert len(got.prompt_refs[0].sha256) == 64


def test_providers_satisfy_the_protocols_and_say_they_are_not_an_llm() -> None:
    providers = local_providers()
    assert isinstance(providers.classifier, Classifier)
    assert isinstance(providers.responder, Responder)
    assert providers.label == LABEL and "not an LLM" in LABEL
    assert isinstance(providers.responder, LocalResponder)


def test_low_confidence_answers_general_conversation(classifier: LocalClassifier) -> None:
    strict = LocalClassifier(classifier.embedder, min_confidence=0.999)
    got = ask(strict, "the raised beds get compost every spring")
    assert got.intent == "general_conversation"
    assert got.confidence is not None and got.confidence < 0.999


OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that you're allergic to all shellfish — is that right?",
    intent="remember_about_me",
    operation_data={"action": "held", "personal_fact": "You're allergic to all shellfish"},
)
TEXT_ONLY_OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that your birthday is March 15th. Is that right?",
    intent="remember_about_me",
)
RETRACTION = HistoryTurn(
    role=Role.COMPANION,
    content="You want me to stop using that you live in Miami?",
    intent="forget_about_me",
    operation_data={
        "action": "confirm_retraction",
        "matched_fact": "You live in Miami",
        "matched_assertion_id": 3,
    },
)
CROSS = HistoryTurn(
    role=Role.COMPANION,
    content="Noted for the menu. Want me to remember that you avoid gluten across all your projects?",
    intent="add_knowledge",
)


def test_confirmation_carries_the_offered_fact(classifier: LocalClassifier) -> None:
    got = ask(classifier, "yes", None, OFFER)
    assert (got.intent, got.params) == (
        "remember_about_me",
        {"personal_fact": "You're allergic to all shellfish"},
    )


def test_refinement_replaces_the_old_value(classifier: LocalClassifier) -> None:
    got = ask(classifier, "no, just shrimp", None, OFFER)
    assert (got.intent, got.params) == (
        "remember_about_me",
        {"personal_fact": "You're allergic to shrimp"},
    )
    dated = ask(classifier, "actually it's March 16th", None, TEXT_ONLY_OFFER)
    assert dated.params == {"personal_fact": "Your birthday is March 16th"}


def test_rejections_and_declines_are_conversation(classifier: LocalClassifier) -> None:
    assert ask(classifier, "never mind", None, OFFER).intent == "general_conversation"
    assert (
        ask(classifier, "no, just this project", "Bakery", CROSS).intent == "general_conversation"
    )
    confirmed = ask(classifier, "yes please", "Bakery", CROSS)
    assert confirmed.intent == "remember_about_me"
    assert "gluten" in confirmed.params["personal_fact"]


def test_retraction_confirmation_forgets_what_was_matched(classifier: LocalClassifier) -> None:
    got = ask(classifier, "yes, that's the one", None, RETRACTION)
    assert (got.intent, got.params) == (
        "forget_about_me",
        {"forget_description": "You live in Miami"},
    )
    assert ask(classifier, "no, keep it", None, RETRACTION).intent == "general_conversation"


def test_a_new_request_after_an_offer_is_classified_afresh(classifier: LocalClassifier) -> None:
    history = (HistoryTurn(role=Role.OPERATOR, content="I'm allergic to shellfish"), OFFER)
    got = ask(classifier, "what did I tell you about the soil pH?", "Garden", *history)
    assert got.intent == "ask_about_past_input"
