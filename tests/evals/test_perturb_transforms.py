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
from evals.perturb.keyboard import neighbours
from evals.perturb.transforms import (
    EMOTICONS,
    emoticons,
    keyboard_typos,
    lower,
    no_articles,
    no_final_punct,
    spelling,
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
    assert len({run(keyboard_typos, text, seed) for seed in range(20)}) > 5
    assert {run(emoticons, "yes", seed) for seed in range(60)} == {f"yes {e}" for e in EMOTICONS}


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
    hit = {run(keyboard_typos, "shellfish", seed) for seed in range(10)}
    assert hit and "shellfish" not in hit
    assert run(keyboard_typos, "shellfish", 0, ["Shellfish"]) == "shellfish"


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


def _one_slip(word: str, typed: str) -> bool:
    """Whether `typed` is `word` with one of the model's five slips past the first letter."""
    if typed[0] != word[0]:
        return False
    for i in range(1, len(word)):
        keys = neighbours(word[i])
        if typed == word[:i] + word[i + 1 :] or typed == word[:i] + word[i] + word[i:]:
            return True  # dropped, doubled
        if typed[:i] == word[:i] and typed[i + 1 :] == word[i + 1 :] and typed[i] in keys:
            return True  # neighbour struck instead
        if (
            typed[: i + 1] == word[: i + 1]
            and typed[i + 2 :] == word[i + 1 :]
            and (typed[i + 1] in keys)
        ):
            return True  # neighbour struck as well
        if i + 1 < len(word) and typed == word[:i] + word[i + 1] + word[i] + word[i + 2 :]:
            return True  # swapped
    return False


def test_keyboard_neighbours_come_from_the_layout_geometry():
    assert set(neighbours("s")) == set("awedzx")
    assert set(neighbours("p")) == set("ol")
    assert set(neighbours("g")) == set("tyfhvb")
    assert neighbours("1") == "" and neighbours("é") == ""
    # symmetric, as distances are
    assert all(a in neighbours(b) for a in "qwertyuiopasdfghjklzxcvbnm" for b in neighbours(a))


def test_keyboard_typos_make_one_slip_of_every_kind_past_the_first_letter():
    text = "Could you remember that my sister lives in Berlin"
    kinds: set[int] = set()
    for seed in range(80):
        out = run(keyboard_typos, text, seed)
        changed = [(a, b) for a, b in zip(text.split(), out.split(), strict=True) if a != b]
        assert len(changed) == 1, out
        word, typed = changed[0]
        assert len(word) >= 4 and _one_slip(word, typed), (word, typed)
        kinds.add(len(typed) - len(word))
    assert kinds == {-1, 0, 1}  # drops, same-length slips and insertions all occur


def test_keyboard_typos_leave_short_messages_and_numbers_alone():
    assert run(keyboard_typos, "yes, ok 07700 900132") == "yes, ok 07700 900132"


def test_keyboard_typos_grow_with_the_message():
    text = " ".join(["remember"] * 30)
    out = run(keyboard_typos, text, 3)
    changed = sum(a != b for a, b in zip(text.split(), out.split(), strict=True))
    assert changed == 4  # one, and one more per 10 words


def test_emoticons_and_spelling():
    assert run(emoticons, "sounds good! ", 1) in {f"sounds good! {e}" for e in EMOTICONS}
    assert run(spelling, "My favorite Color is gray") == "My favourite Colour is grey"
    assert run(spelling, "my Mum's neighbour") == "my Mom's neighbor"
    assert run(spelling, "my favorite color", needles=["color"]) == "my favourite color"


def test_parse_names_presets_chains_all_and_none():
    assert parse_perturbations(["casual"]) == (Perturbation("casual", ("lower", "no_final_punct")),)
    assert parse_perturbations(["lower+keyboard_typos,emoticons"]) == (
        Perturbation("lower+keyboard_typos", ("lower", "keyboard_typos")),
        Perturbation("emoticons", ("emoticons",)),
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
        parse_perturbations(["none,texting"])


def test_a_chain_seeds_each_step_by_message():
    chain = parse_perturbations(["lower+emoticons"])[0]
    one = chain.apply("Hello There", (), 0, "case|0")
    assert one == chain.apply("Hello There", (), 0, "case|0")
    assert one.startswith("hello there ")
    outs = {chain.apply("Hello There", (), 0, f"case|{i}") for i in range(60)}
    assert len(outs) == len(EMOTICONS)
