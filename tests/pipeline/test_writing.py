"""Writing constraints for model-written memory items (docs/memory.md, "Writing constraints")."""

from __future__ import annotations

import pytest

from pipeline.memory.writing import MAX_CHARS, check, fitted


@pytest.mark.parametrize(
    ("item", "voice"),
    [
        ("You're allergic to shellfish.", "second"),
        ("Your daughter Lila starts school in September. She is five.", "second"),
        ("Ana prefers short written replies to voice notes.", "third"),
        ("- Kel decided to ship the recurring events first.", "third"),
    ],
)
def test_well_written_items_pass(item: str, voice: str) -> None:
    verdict = check(item, voice)  # type: ignore[arg-type]
    assert verdict.passed, verdict.problems


@pytest.mark.parametrize(
    ("item", "voice", "problem"),
    [
        ("   ", "second", "empty"),
        ("I'm allergic to shellfish", "second", "first person"),
        ("Allergic to shellfish", "second", "not addressed"),
        ("It is at the garage until Friday.", "second", "self-contained"),
        ("As mentioned, you like figs.", "second", "self-contained"),
        ("As an AI, I will remember that you like figs.", "second", "speaks as the model"),
        ("You like figs. You like plums. You like kiwis.", "second", "more than 2 sentences"),
        ("You like " + "very " * 70 + "ripe figs.", "second", "longer than 280"),
        ("Ana told you she prefers mornings.", "third", "third person"),
        ("They decided to wait.", "third", "self-contained"),
    ],
)
def test_each_broken_rule_is_named(item: str, voice: str, problem: str) -> None:
    verdict = check(item, voice)  # type: ignore[arg-type]
    assert not verdict.passed
    assert any(problem in p for p in verdict.problems), verdict.problems


def test_fitting_trims_length_and_sentences_but_not_voice() -> None:
    long = "You restore old bicycles in your garage, " + "mostly steel road frames, " * 15
    trimmed = fitted(long, "second")
    assert trimmed is not None and len(trimmed) <= MAX_CHARS and trimmed.endswith("…")
    assert fitted("You like figs. You like plums. You like kiwis.", "second") == (
        "You like figs. You like plums."
    )
    assert fitted("I like figs.", "second") is None
    assert fitted("", "third") is None
