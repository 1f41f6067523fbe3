"""Each perturbation transform: deterministic for a seed, the shape it promises, and never a
change to a protected needle."""

from __future__ import annotations

from random import Random

import pytest

from evals.perturb import (
    TRANSFORMS,
    Perturbation,
    PerturbError,
    parse_perturbations,
    protected_spans,
    valid_names,
)
from evals.perturb.transforms import (
    EMOJI,
    FILLERS,
    QWERTY_NEIGHBOURS,
    contractions,
    emoji,
    filler,
    lower,
    no_articles,
    no_final_punct,
    spelling,
    typos,
)

SENTENCES = [
    "I'm allergic to shellfish, and the doctor says it is serious.",
    "My daughter Lila is five and loves picking strawberries!",
    "The plumber is due on Monday; the washing machine is leaking again.",
    "no, actually it's the 12th not the 11th",
    "Could you drop the part about my old job?",
    "I do not eat meat at home, but I am fine with fish at a restaurant.",
    "sorry, typo — 07700 900132",
    "We are organizing a party for my favorite neighbor on the 4th.",
]
NEEDLES = ("shellfish", "lila", "monday", "12th", "old job", "fish", "07700 900132", "the 4th")


def run(transform, text, seed=0, needles=()):
    return transform(text, Random(seed), tuple(needles))


def count(text: str, needle: str) -> int:
    return len(protected_spans(text, [needle]))


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_every_transform_is_deterministic_for_its_seed(name):
    transform = TRANSFORMS[name]
    for text in SENTENCES:
        assert run(transform, text, 7, NEEDLES) == run(transform, text, 7, NEEDLES)


def test_the_seed_chooses_the_random_steps():
    text = SENTENCES[2]
    assert len({run(typos, text, seed) for seed in range(20)}) > 5
    assert {run(filler, "yes", seed) for seed in range(40)} == {"yes tbh", "yes lol", "ok so yes"}


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_no_transform_changes_a_needle(name):
    transform = TRANSFORMS[name]
    for seed in range(30):
        for text in SENTENCES:
            out = run(transform, text, seed, NEEDLES)
            for needle in NEEDLES:
                assert count(out, needle) == count(text, needle), (name, seed, text, out)


def test_without_protection_typos_do_land_on_the_words_needles_guard():
    """The protection test above could not fail if typos never touched those words."""
    hit = {run(typos, "shellfish", seed) for seed in range(10)}
    assert hit and "shellfish" not in hit
    assert run(typos, "shellfish", 0, ["Shellfish"]) == "shellfish"


def test_lower():
    assert run(lower, "My daughter Lila is FIVE.") == "my daughter lila is five."


def test_no_articles_drops_articles_but_not_where_they_carry_meaning():
    assert (
        run(no_articles, "The plumber fixed a leak in the kitchen")
        == "plumber fixed leak in kitchen"
    )
    assert run(no_articles, "I ate a few of the ones I liked") == "I ate a few of the ones I liked"
    assert run(no_articles, "yes, that's the one") == "yes, that's the one"
    assert run(no_articles, "plan A is fine. A friend said so") == "plan A is fine. friend said so"
    assert run(no_articles, "it's the 4th", needles=["the 4th"]) == "it's the 4th"


def test_no_final_punct_only_at_the_end():
    assert run(no_final_punct, "Is it Monday? Or Tuesday?") == "Is it Monday? Or Tuesday"
    assert run(no_final_punct, "great!!! ") == "great"
    assert run(no_final_punct, "?") == "?"
    assert run(no_final_punct, "v. 2") == "v. 2"


def test_contractions_contract_or_else_expand_only_unambiguous_forms():
    assert run(contractions, "I am sure it is not done") == "I'm sure it isn't done"
    assert run(contractions, "You are right, we do not know") == "You're right, we don't know"
    assert run(contractions, "I don’t know and I can't say") == "I do not know and I cannot say"
    assert run(contractions, "it's been a while") == "it's been a while"  # "it has" or "it is"
    assert run(contractions, "I am sure", needles=["I am"]) == "I am sure"


def test_filler_leads_or_trails_before_closing_punctuation():
    outs = {run(filler, "Is that right?", seed) for seed in range(40)}
    assert outs == {"Is that right tbh?", "Is that right lol?", "ok so Is that right?"}
    assert {o.split()[-1] for o in (run(filler, "no", s) for s in range(40))} <= {
        *FILLERS,
        "no",
    }


def test_typos_substitute_one_neighbouring_key_past_the_first_letter():
    text = "Could you remember that my sister lives in Berlin"
    for seed in range(50):
        out = run(typos, text, seed)
        assert len(out) == len(text)
        diffs = [(i, a, b) for i, (a, b) in enumerate(zip(text, out, strict=True)) if a != b]
        assert len(diffs) == 1, out
        i, before, after = diffs[0]
        assert after.lower() in QWERTY_NEIGHBOURS[before.lower()]
        word_start = text.rfind(" ", 0, i) + 1
        assert i > word_start  # never the first letter
        word = text[word_start:].split(" ")[0]
        assert len(word) >= 4


def test_typos_leave_short_messages_and_numbers_alone():
    assert run(typos, "yes, ok 07700 900132") == "yes, ok 07700 900132"


def test_typos_grow_with_the_message():
    text = " ".join(["remember"] * 30)
    changed = sum(a != b for a, b in zip(text, run(typos, text, 3), strict=True))
    assert changed == 3  # one, and one more per 12 words


def test_emoji_and_spelling():
    assert run(emoji, "sounds good! ", 1) in {f"sounds good! {e}" for e in EMOJI}
    assert run(spelling, "My favorite Color is gray") == "My favourite Colour is grey"
    assert run(spelling, "my Mum's neighbour") == "my Mom's neighbor"
    assert run(spelling, "my favorite color", needles=["color"]) == "my favourite color"


def test_parse_names_presets_chains_all_and_none():
    assert parse_perturbations(["casual"]) == (Perturbation("casual", ("lower", "no_final_punct")),)
    assert parse_perturbations(["lower+typos,emoji"]) == (
        Perturbation("lower+typos", ("lower", "typos")),
        Perturbation("emoji", ("emoji",)),
    )
    assert [p.name for p in parse_perturbations(["all"])] == list(TRANSFORMS)
    assert parse_perturbations(["none"]) == ()
    assert parse_perturbations([]) == ()


def test_an_unknown_name_is_one_line_listing_the_valid_ones():
    with pytest.raises(PerturbError) as caught:
        parse_perturbations(["casual,tpyos"])
    line = caught.value.one_line()
    assert "\n" not in line
    assert line.startswith(f"unknown perturbation 'tpyos'; valid: {', '.join(valid_names())}")
    with pytest.raises(PerturbError, match="`none` cannot be combined"):
        parse_perturbations(["none,typos"])


def test_a_chain_seeds_each_step_by_message():
    chain = parse_perturbations(["lower+filler"])[0]
    one = chain.apply("Hello There", (), 0, "case|0")
    assert one == chain.apply("Hello There", (), 0, "case|0")
    assert one.startswith("hello there") or one == "ok so hello there"
    outs = {chain.apply("Hello There", (), 0, f"case|{i}") for i in range(30)}
    assert len(outs) == 3
