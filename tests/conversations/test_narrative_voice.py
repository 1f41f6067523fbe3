"""The deterministic narrative retells the person's words in the third person."""

from __future__ import annotations

from pipeline.conversations import fallback
from pipeline.english import ENGLISH
from pipeline.english.voice import third_person
from pipeline.memory.writing import check


def test_first_person_becomes_singular_they_with_matching_verbs() -> None:
    said = third_person("Still to do: lay it myself. I was late, so I'm calling my sister. I'd go")
    assert said == (
        "Still to do: lay it themselves. They were late, so they're calling their sister. They'd go"
    )


def test_the_person_speaking_to_the_companion_is_retold_without_a_pronoun() -> None:
    assert third_person("can you remind me") == "can the companion remind them"


def test_words_that_only_contain_a_pronoun_are_left_alone() -> None:
    assert third_person("Mimi mentioned the meme, i.e. the item") == (
        "Mimi mentioned the meme, i.e. the item"
    )


def test_a_promise_narrative_names_no_pronoun_as_the_one_waited_on() -> None:
    turns = (("operator", "Kel here. She'll email me the template date once I confirm it."),)
    found = fallback.entities(turns)
    assert found.waiting_on, "the promise is a waiting-on"
    text = fallback.narrative(found, turns, "Kel")
    assert "waiting on She" not in text
    assert "Kel is waiting for someone to email them the template date" in text
    assert check(text, "third", max_chars=700, max_sentences=4, lexicon=ENGLISH).passed


def test_the_quoted_fallback_retells_the_longest_sentence() -> None:
    turns = (("operator", "I can keep running but my knee hurts after the hills."),)
    text = fallback.narrative(fallback.entities(turns), turns, "Ben")
    assert "Ben said: They can keep running but their knee hurts after the hills." in text
    assert check(text, "third", max_chars=700, max_sentences=4, lexicon=ENGLISH).passed
