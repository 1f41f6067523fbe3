"""Texting shorthand on the local provider: read as the words it stands for ("could u drop
...", "plz forget ur ..."), only as a whole token, never written into a stored fact except as
the voice of the fact requires. Messages written apart from every suite."""

from __future__ import annotations

import pytest

from pipeline.converse import TurnOutcome, converse
from pipeline.english.extract import knowledge, personal_fact
from pipeline.english.refine import refine_fact
from pipeline.english.shorthand import read_shorthand, unabbreviated
from pipeline.providers.base import ClassifyRequest, Providers
from pipeline.providers.local import LocalClassifier, LocalResponder
from pipeline.providers.local.classifier import read_text
from pipeline.providers.local.responder import personal_clause
from pipeline.store import Store
from pipeline.store.people import create_person


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("could u bin the bit about my flat", "could you bin the bit about my flat"),
        ("r u around later", "are you around later"),
        ("plz wipe ur note on my gym", "please wipe your note on my gym"),
        ("ur so right", "you're so right"),
        ("ur hilarious", "you're hilarious"),
        ("how is ur knee", "how is your knee"),  # "your" unless what follows describes
        ("pls dont keep it", "please don't keep it"),
        ("ya we moved last spring", "yeah we moved last spring"),
        ("miss ya", "miss you"),
        ("thx, ive got it", "thanks, i've got it"),
        ("whats my sons bday again", "what's my sons birthday again"),
        ("Im off tmrw", "I'm off tomorrow"),
        ("kk", "okay"),
        ("wut was the name of that cafe", "what was the name of that cafe"),
        ("wen did i say the boiler was serviced", "when did i say the boiler was serviced"),
    ],
)
def test_shorthand_is_read_as_the_words_it_stands_for(typed: str, read: str) -> None:
    assert unabbreviated(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "mostly r&b and some soul",  # "r" joined to "&b"
        "tickets for u2 in june",  # "u" joined to a digit
        "took a U-turn at the lights",
        "maxing out my 401(k) this year",  # "k" in brackets, and "k" inside a message
        "mail me at jo.k@example.org",
        "back from the u.s. on friday",
        "I do my stats in R",  # a capital letter inside a sentence names something
        "she spells it with the letter u",
        "ok k",  # "k" is "okay" only as the whole reply
        "my ill aunt said its fine, lets go",  # words of their own, never contractions
    ],
)
def test_a_form_joined_to_other_characters_or_naming_something_is_kept(typed: str) -> None:
    assert unabbreviated(typed) == typed


def test_a_form_is_read_at_the_start_of_a_sentence_but_a_capitalised_one_inside_is_a_name() -> None:
    assert unabbreviated("Bc of the snow we stayed in") == "Because of the snow we stayed in"
    assert unabbreviated("we met Ty at the market") == "we met Ty at the market"


def test_the_reading_knows_which_typed_words_each_read_span_came_from() -> None:
    reading = read_shorthand("plz note my bday is in may thx")
    start = reading.read.index("my")
    end = reading.read.index(" thanks")
    assert reading.typed[slice(*reading.typed_span(start, end))] == "my bday is in may"


@pytest.mark.parametrize(
    ("shorthand", "written"),
    [
        ("could u drop the thing about my cat", "could you drop the thing about my cat"),
        ("plz forget ur note about my knee", "please forget your note about my knee"),
        ("u can forget about my old flat", "you can forget about my old flat"),
        ("i dont want u to remember my address", "i don't want you to remember my address"),
        ("what do u know abt me", "what do you know about me"),
        ("did i tell u where my sister lives", "did i tell you where my sister lives"),
        ("ur the best", "you're the best"),
        ("remind me wat i said about the van", "remind me what i said about the van"),
        ("wht did i tell u about my landlord", "what did i tell you about my landlord"),
        ("whr did i say i parked", "where did i say i parked"),
    ],
)
def test_a_message_in_shorthand_is_classified_as_written_out(
    classifier: LocalClassifier, shorthand: str, written: str
) -> None:
    typed = classifier.classify(ClassifyRequest(message=shorthand))
    full = classifier.classify(ClassifyRequest(message=written))
    assert (typed.intent, typed.params) == (full.intent, full.params)
    assert read_text(shorthand) == read_text(written)


@pytest.mark.parametrize(
    ("typed", "fact"),
    [
        # the framing is read past shorthand; the fact keeps what was typed
        ("plz remember my bday is the 9th", "Your bday is the 9th"),
        ("remember im allergic to lychee thx", "You're allergic to lychee"),
        ("can u remember that my fave colour is teal", "Your fave colour is teal"),
        # the companion's "u" / "ur" is voiced as its "you" / "your" would be
        ("my nan thinks ur hilarious", personal_fact("my nan thinks you're hilarious")),
        ("my nan says u r a good listener", "Your nan says I am a good listener"),
        ("my coach reads ur replies too", personal_fact("my coach reads your replies too")),
        # and nothing else in it: "u2" is a band, "r&b" a genre
        ("my first gig was u2", "Your first gig was u2"),
        ("i mostly listen to r&b", "You mostly listen to r&b"),
    ],
)
def test_a_stored_fact_keeps_what_was_typed_in_the_companions_voice(typed: str, fact: str) -> None:
    assert personal_fact(typed) == fact


@pytest.mark.parametrize(
    ("shorthand", "written"),
    [
        ("ya but its the 4th not the 3rd", "yeah but its the 4th not the 3rd"),
        ("ya, 4th not 3rd", "yeah, 4th not 3rd"),
    ],
)
def test_a_correction_opening_in_shorthand_corrects_as_written_out(
    shorthand: str, written: str
) -> None:
    offered = "Your niece's party is on the 3rd of May"
    corrected = refine_fact(offered, shorthand)
    assert corrected == refine_fact(offered, written)
    assert "4th" in corrected and "ya" not in corrected.lower().split()


@pytest.mark.parametrize(
    ("note", "clause"),
    [
        ("Pack the picnic without nuts, since im allergic to them", "You're allergic to them"),
        ("Keep the hikes short bc my knee is dodgy", "Your knee is dodgy"),
        ("Set the desk at 80 cm, im 1.6 m tall", "You're 1.6 m tall"),
    ],
)
def test_a_project_note_with_a_reason_about_the_person_in_shorthand_offers_it_across_projects(
    note: str, clause: str
) -> None:
    assert personal_clause(note) == clause


def test_a_project_note_framed_in_shorthand_keeps_its_words() -> None:
    assert knowledge("pls note the shed roof leaks thx") == "The shed roof leaks"


def _say(store: Store, classifier: LocalClassifier, message: str) -> TurnOutcome:
    providers = Providers.of(classifier, LocalResponder(), embedder=classifier.embedder)
    return converse(store, person="bo", message=message, providers=providers)


def test_a_forget_request_in_shorthand_retracts_the_fact_it_names(
    sqlite_store: Store, classifier: LocalClassifier
) -> None:
    with sqlite_store.write() as session:
        create_person(session, "bo")
    _say(sqlite_store, classifier, "im allergic to sesame")
    _say(sqlite_store, classifier, "yep")
    asked = _say(sqlite_store, classifier, "could u drop the sesame thing")
    assert asked.route.intent == "forget_about_me"  # never answered as recall
    assert asked.route.operation_data["action"] == "confirm_retraction"
    done = _say(sqlite_store, classifier, "ya")
    assert done.route.operation_data["action"] == "retracted"
