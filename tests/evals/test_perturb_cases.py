"""Perturbing whole cases: which texts are rewritten, which needles are protected, and that no
case of the project's suites has a needle changed by any transform."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.dataset import ClassifyCase, ConversationCase, ForgetCase, load_suite
from evals.dataset.conversation import EraseTurn, MessageTurn
from evals.perturb import (
    messages,
    needles,
    parse_perturbations,
    perturb_case,
    protected_spans,
)
from pipeline.config import PROJECT_ROOT

TYPOS = parse_perturbations(["keyboard_typos"])[0]
LOWER = parse_perturbations(["lower"])[0]
SPELLING = parse_perturbations(["spelling"])[0]
SUITES = ["conversations", "intent_boundaries", "continuations", "forget_matching"]


def classify_case() -> ClassifyCase:
    return ClassifyCase.model_validate(
        {
            "id": "refined",
            "history": [
                {"operator": "I'm allergic to Shellfish, seriously"},
                {"companion": "I'll remember that you're allergic to all shellfish. Right?",
                 "intent": "remember_about_me"},
            ],
            "message": "No, just shrimp and prawns actually",
            "expect": {
                "intent": "remember_about_me",
                "params": {"personal_fact": {"contains": ["shrimp"], "excludes": ["shellfish"]}},
            },
        }
    )  # fmt: skip


def conversation_case() -> ConversationCase:
    return ConversationCase.model_validate(
        {
            "id": "conv",
            "memories": [{"content": "You work at the bakery on Elm Street", "age": "3 days"}],
            "notes": [{"project": "Garden", "content": "Compost every Sunday"}],
            "turns": [
                {"message": "My daughter Lila is five and loves strawberries",
                 "expect": {"memory": [{"text": {"contains": ["lila"]}}],
                            "reply": {"contains": ["daughter"]}}},
                {"message": "Please forget where I work, the bakery thing",
                 "project": "Garden",
                 "expect": {"notes": [{"text": {"contains": ["compost"]}}],
                            "prompt": {"excludes": ["Elm"]}}},
                {"erase": "strawberries"},
            ],
        }
    )  # fmt: skip


def test_needles_come_from_every_text_check_erase_and_stored_fact_words():
    assert set(needles(classify_case())) == {"shrimp", "shellfish"}
    found = set(needles(conversation_case()))
    assert {"lila", "daughter", "compost", "Elm", "strawberries"} <= found
    assert {"bakery", "work"} <= found  # words of turn 2 that name a seeded fact
    assert "Please" not in found and "forget" not in found


def test_forget_needles_are_the_message_words_naming_a_stored_fact():
    case = ForgetCase.model_validate(
        {
            "id": "f",
            "memories": [{"content": "You're allergic to peanuts", "age": "1 days"}],
            "message": "my peanut allergy thing",
            "expect": {"action": "confirm_retraction", "matched": ["You're allergic to peanuts"]},
        }
    )
    assert set(needles(case)) == {"peanut", "allergy"}  # stems "peanu", "aller"
    for seed in range(20):
        out = perturb_case(case, TYPOS, seed)
        assert out is not None and isinstance(out, ForgetCase)
        assert "peanut allergy" in out.message and out.expect == case.expect


def test_classify_case_rewrites_operator_turns_only_and_keeps_expectations():
    case = classify_case()
    out = perturb_case(case, LOWER, 0)
    assert isinstance(out, ClassifyCase)
    assert out.message == "no, just shrimp and prawns actually"
    assert out.history[0].operator == "i'm allergic to shellfish, seriously"
    assert out.history[1] == case.history[1]  # the companion's words are not the person's
    assert (out.id, out.expect, out.tags) == (case.id, case.expect, case.tags)


def test_conversation_rewrites_every_message_turn_and_leaves_erasures():
    case = conversation_case()
    out = perturb_case(case, LOWER, 0)
    assert isinstance(out, ConversationCase)
    assert [t.message for t in out.turns if isinstance(t, MessageTurn)] == [
        "my daughter lila is five and loves strawberries",
        "please forget where i work, the bakery thing",
    ]
    assert out.turns[2] == EraseTurn(erase="strawberries")
    assert [getattr(t, "expect", None) for t in out.turns] == [
        getattr(t, "expect", None) for t in case.turns
    ]


def test_a_case_no_transform_changes_is_none():
    assert perturb_case(classify_case(), SPELLING, 0) is None


def test_the_same_seed_rewrites_the_same_way_and_another_seed_may_not():
    case = conversation_case()
    assert perturb_case(case, TYPOS, 3) == perturb_case(case, TYPOS, 3)
    assert len({str(perturb_case(case, TYPOS, s)) for s in range(10)}) > 1


@pytest.mark.parametrize("suite_name", SUITES)
def test_no_perturbation_changes_a_needle_in_the_projects_suites(suite_name):
    suite = load_suite(Path(PROJECT_ROOT) / "evals" / "suites" / f"{suite_name}.yaml")
    for perturbation in parse_perturbations(["all", "casual"]):
        for seed in (0, 1):
            for case in suite.cases:
                out = perturb_case(case, perturbation, seed)
                if out is None:
                    continue
                guarded = needles(case)
                for before, after in zip(messages(case), messages(out), strict=True):
                    for needle in guarded:
                        assert len(protected_spans(after, [needle])) >= len(
                            protected_spans(before, [needle])
                        ), (suite_name, case.id, perturbation.name, before, after, needle)
