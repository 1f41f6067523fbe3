"""Writing constraints for model-written memory items (docs/memory.md, "Writing constraints")."""

from __future__ import annotations

import pytest

from pipeline.english import ENGLISH
from pipeline.lexicon import NO_LEXICON, Lexicon
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
    verdict = check(item, voice, lexicon=ENGLISH)  # type: ignore[arg-type]
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
    verdict = check(item, voice, lexicon=ENGLISH)  # type: ignore[arg-type]
    assert not verdict.passed
    assert any(problem in p for p in verdict.problems), verdict.problems


def test_fitting_trims_length_and_sentences_but_not_voice() -> None:
    long = "You restore old bicycles in your garage, " + "mostly steel road frames, " * 15
    trimmed = fitted(long, "second", lexicon=ENGLISH)
    assert trimmed is not None and len(trimmed) <= MAX_CHARS and trimmed.endswith("…")
    assert fitted("You like figs. You like plums. You like kiwis.", "second", lexicon=ENGLISH) == (
        "You like figs. You like plums."
    )
    assert fitted("I like figs.", "second", lexicon=ENGLISH) is None
    assert fitted("", "third", lexicon=ENGLISH) is None


# --- the words are the lexicon's: none lent, only the language-free rules ------------------


@pytest.mark.parametrize(
    "item",
    [
        "I'm allergic to shellfish.",  # first person
        "Allergic to shellfish.",  # no second-person word
        "It is at the garage until Friday.",  # points outside itself
        "As an AI, I will remember that you like figs.",  # the model speaking
    ],
)
def test_without_a_lexicon_the_rules_that_need_words_are_skipped(item: str) -> None:
    assert check(item, "second", lexicon=NO_LEXICON).passed
    assert not check(item, "second", lexicon=ENGLISH).passed


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ("   ", "empty"),
        ("Figs. Plums. Kiwis.", "more than 2 sentences"),
        ("Figs " * 80, "longer than 280"),
    ],
)
def test_without_a_lexicon_the_language_free_rules_still_hold(item: str, problem: str) -> None:
    problems = check(item, "third", lexicon=NO_LEXICON).problems
    assert len(problems) == 1 and problem in problems[0], problems


def test_a_trimmed_tail_drops_a_dangling_joiner_only_when_the_lexicon_lends_it() -> None:
    item = "You keep bees " + "x" * 257 + " and honey"  # the cut falls after "and"
    assert fitted(item, "second", lexicon=ENGLISH) == "You keep bees " + "x" * 257 + "…"
    assert fitted(item, "second", lexicon=NO_LEXICON) == "You keep bees " + "x" * 257 + " and…"


# --- another language's words make the same rules work in it ------------------------------

FRENCH = Lexicon(
    name="fr",
    first_person=frozenset({"je", "j'ai", "moi", "mon", "ma", "mes", "me"}),
    second_person=frozenset({"vous", "votre", "vos", "tu", "ton", "ta", "tes", "toi"}),
    pointing_openers=frozenset({"il", "elle", "ils", "cela", "ça", "comme mentionné"}),
    self_talk=frozenset({"en tant qu'ia", "je vais retenir"}),
    trailing_joiners=frozenset({"et", "ou", "mais", "parce que"}),
)


@pytest.mark.parametrize(
    ("item", "voice"),
    [
        ("Vous êtes allergique aux fruits de mer.", "second"),
        ("Votre fille Léa entre à l'école en septembre.", "second"),
        ("Ana préfère les réponses courtes.", "third"),
    ],
)
def test_another_lexicon_passes_items_well_written_in_its_language(item: str, voice: str) -> None:
    verdict = check(item, voice, lexicon=FRENCH)  # type: ignore[arg-type]
    assert verdict.passed, verdict.problems


@pytest.mark.parametrize(
    ("item", "voice", "problem"),
    [
        ("Je suis allergique aux fruits de mer.", "second", "first person"),
        ("J'ai un chien nommé Filou.", "second", "first person"),
        ("Allergique aux fruits de mer.", "second", "not addressed"),
        ("Ana VOUS a dit qu'elle préfère le matin.", "third", "third person"),
        ("Comme  mentionné, vous aimez les figues.", "second", "self-contained"),
        ("Elle est au garage jusqu'à vendredi.", "third", "self-contained"),
        ("En tant qu'IA, je vais retenir que vous aimez les figues.", "second", "as the model"),
    ],
)
def test_another_lexicon_names_each_broken_rule_in_its_language(
    item: str, voice: str, problem: str
) -> None:
    verdict = check(item, voice, lexicon=FRENCH)  # type: ignore[arg-type]
    assert any(problem in p for p in verdict.problems), verdict.problems


def test_another_lexicon_does_not_read_english_words() -> None:
    verdict = check("I'm allergic to shellfish.", "second", lexicon=FRENCH)
    assert verdict.problems == ("not addressed to the person (no second-person word)",)
    # a word that only contains a lent one is not it: "Ilse" does not open with "il"
    assert check("Ilse vous appelle le dimanche.", "second", lexicon=FRENCH).passed
