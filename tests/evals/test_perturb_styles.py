"""The style rewrites: each gives the style it promises and leaves alone what it would change
the meaning of."""

from __future__ import annotations

from random import Random

from evals.perturb.styles import (
    OPENING_PAUSES,
    PAUSES,
    formal,
    polite_question,
    texting,
    voice_transcript,
)


def run(transform, text, seed=0, needles=()):
    return transform(text, Random(seed), tuple(needles))


def test_texting_drops_inner_vowels_and_shortens_joins_but_keeps_names_and_numbers():
    outs = {
        run(texting, "Please remember my appointment with Dr Patel and Bernadette.", s)
        for s in range(20)
    }
    assert "plse rmmbr my appntmnt w/ dr patel & bernadette" in outs
    for out in outs:
        assert "bernadette" in out and " & " in out and " w/ " in out and not out.endswith(".")
    assert run(texting, "call me at 0770090 tomorrow", 1).split()[3] == "0770090"
    assert run(texting, "remember tomorrow", 0, ["remember", "tomorrow"]) == "remember tomorrow"


def test_voice_transcript_spells_out_lone_numbers_drops_punctuation_and_hesitates():
    out = run(voice_transcript, "My daughter is 9, and my son is 12.", 0)
    words = out.split()
    assert words[0] in OPENING_PAUSES
    assert [w for w in words[1:] if w in PAUSES or w == "you"] != []
    plain = " ".join(w for w in words if w not in PAUSES and w != "you" and w != "know")
    assert plain == "My daughter is nine and my son is twelve"


def test_voice_transcript_keeps_numbers_with_more_than_one_spoken_form_and_question_marks():
    out = run(voice_transcript, "Is it at 3:30 on the 4th, 2.5 km, in 2024, or 07700 900132?", 2)
    for kept in ("3:30", "4th", "2.5", "2024", "07700 900132", "?"):
        assert kept in out
    assert "," not in out
    assert "nine" not in run(voice_transcript, "she is 9", 0, ["9"])


def test_polite_question_asks_a_command_and_leaves_the_rest():
    out = run(polite_question, "Forget my old address.", 0)
    assert out in {
        "Could you please forget my old address?",
        "Would you mind if I asked you to forget my old address?",
        "Would you be able to forget my old address?",
    }
    assert "please" not in run(polite_question, "keep that to the EP please", 4).split()[:3]
    for kept in (
        "I live in Miami.",  # a statement
        "and a greyhound called Rufus",  # joins the message before
        "yes that one",  # a reply
        "actually it moved to 6",  # no verb's plain form
        "for this project I'm vegan",  # a preposition
        "Clara my sister",  # a capital without closing punctuation may be a name
        "forget it, doesn't matter",  # two clauses
        "Can you forget my address?",  # already a question
    ):
        assert run(polite_question, kept) == kept


def test_formal_expands_contractions_with_one_reading_and_capitalises():
    assert (
        run(formal, "i don't think i'm free, can't we do it when you're back? it's fine")
        == "I do not think I am free, can't we do it when you are back? It's fine"
    )
    assert run(formal, "Won't you? I won't, I'd say") == "Won't you? I will not, I'd say"
    assert run(formal, "i don't know", 0, ["don't"]) == "I don't know"
