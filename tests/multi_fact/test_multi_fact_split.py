"""The deterministic splitter: sentences and first-person clauses become second-person facts;
questions, requests and framing are left out."""

from __future__ import annotations

from pipeline.english.split import MAX_CANDIDATES, clauses, split_facts


def test_a_sentence_of_three_clauses_gives_three_facts() -> None:
    got = split_facts(
        "Okay, a few things about me. My sister Priya lives in Leeds, I'm allergic to cats, "
        "and I run every Saturday morning."
    )
    assert got == [
        "Your sister Priya lives in Leeds",
        "You're allergic to cats",
        "You run every Saturday morning",
    ]


def test_colons_semicolons_and_line_breaks_separate_facts() -> None:
    got = split_facts("Quick rundown: I'm 52; I run a bike shop\nMy wife Carmen is a solicitor.")
    assert got == ["You're 52", "You run a bike shop", "Your wife Carmen is a solicitor"]


def test_a_request_to_remember_is_framing_not_a_fact() -> None:
    got = split_facts(
        "I'd like you to remember that I work nights, and my dog is called Biscuit. "
        "Can you remember all that?"
    )
    assert got == ["You work nights", "Your dog is called Biscuit"]


def test_a_remark_after_a_comma_is_not_a_fact_of_the_person() -> None:
    got = split_facts("I'm vegetarian, I don't drink coffee, it would be nice if you remembered")
    assert got == ["You're vegetarian", "You don't drink coffee"]


def test_a_clause_about_someone_else_inside_a_sentence_stays_with_its_fact() -> None:
    got = split_facts("I have two kids, Sam who is 7 and Mia who is 4")
    assert got == ["You have two kids, Sam who is 7 and Mia who is 4"]


def test_questions_are_left_out_and_repeats_kept_once() -> None:
    got = split_facts("I'm a nurse. What should I cook tonight? I'm a nurse, and I live in Oslo.")
    assert got == ["You're a nurse", "You live in Oslo"]


def test_at_most_five_candidates() -> None:
    message = " ".join(f"I own {n} bikes." for n in range(2, 10))
    assert len(split_facts(message)) == MAX_CANDIDATES


def test_leading_connectors_are_dropped_from_clauses() -> None:
    assert clauses("Honestly, I bake. And also my son is 4") == ["I bake", "my son is 4"]
