"""How the local provider reads a message's surface: filler before a question mark, slipped
keys in value words and elsewhere, written-out forms, and a question typed without its mark.
Messages are written apart from every suite."""

from __future__ import annotations

import pytest

from pipeline.english.cues import forget_object, limits_to_project
from pipeline.english.extract import forget_description
from pipeline.english.language import is_question
from pipeline.english.refine import refine_fact
from pipeline.english.spelling import Vocabulary, slips, spelled
from pipeline.english.surface import contracted, plain, without_filler
from pipeline.providers.local.classifier import read_text
from pipeline.providers.local.responder import personal_clause
from pipeline.providers.local.words import known_words, vocabulary


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("any good bakeries near the station lol?", "any good bakeries near the station?"),
        ("is the ferry running tbh?", "is the ferry running?"),
        ("ok so the dentist moved to Friday", "the dentist moved to Friday"),
    ],
)
def test_filler_goes_and_the_closing_mark_stays(typed: str, kept: str) -> None:
    assert without_filler(typed) == kept


@pytest.mark.parametrize(
    ("typed", "restored"),
    [
        ("no, three wesks ago", "weeks"),  # a value a correction replaces by
        ("actually on thursdsys", "thursdays"),
        ("I'vr been vegan for years", "I've"),  # a contraction is a word of its own
    ],
)
def test_slips_in_value_words_and_contractions_are_put_right(typed: str, restored: str) -> None:
    assert restored in plain(typed, known_words())


def test_other_slips_stay_in_what_is_stored() -> None:
    # a fact keeps what was typed: only cue, value and contraction words are put right
    assert "gardem" in plain("my neighbour's gardem is huge", known_words())
    # and a capitalised word inside a sentence is a name, even one slip from a value word
    assert "Fibe" in plain("my rabbit is called Fibe", known_words())
    # a letter that is not a neighbouring key is no slip: "acl" is not "all"
    assert plain("had my acl repaired", known_words()) == "had my acl repaired"


def test_slips_are_one_neighbouring_key_or_one_swap_never_the_first_letter() -> None:
    found = slips("cat")
    assert "cst" in found and "cta" in found  # a neighbour of "a"; "a" and "t" swapped
    assert "bat" not in found and "czt" in found
    assert all(word[0] == "c" for word in found)


def test_a_slipped_word_is_read_as_the_commonest_word_one_slip_away() -> None:
    vocabulary = Vocabulary({"shows": 5, "shoes": 9, "show": 3})
    assert spelled("can you shpw me", vocabulary) == "can you show me"
    assert spelled("the shows", vocabulary) == "the shows"  # a known word is kept
    assert spelled("send Shpw a card", vocabulary) == "send Shpw a card"  # a name is kept
    assert spelled("Shpw me", vocabulary) == "Show me"  # the first word is not a name
    assert spelled("qzxv", vocabulary) == "qzxv"  # nothing near: kept as typed


def test_a_form_of_a_known_word_is_a_word_not_a_slip() -> None:
    vocabulary = Vocabulary({"flare": 1, "flared": 2, "repot": 3, "repots": 4, "online": 5})
    typed = "knees flares up, repotting"
    assert spelled(typed, vocabulary) == typed
    # a slip is no form: "onlind" is a slip of "online", not "online" + "d"
    assert spelled("check onlind", vocabulary) == "check online"


def test_the_model_vocabulary_reads_slips_in_everyday_words() -> None:
    typed = "what kinds of thimgs can you hslp with"
    read = spelled(typed, vocabulary())
    assert read == "what kinds of things can you help with"
    assert len(read) == len(typed)  # put right in place: offsets still point into the typed text


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("I am off to Crete", "I'm off to Crete"),
        ("please do not keep that", "please don't keep that"),
        ("We are not sure it is worth it", "We're not sure it's worth it"),
        ("that's just how it is", "that's just how it is"),  # nothing after: kept
    ],
)
def test_written_out_forms_are_read_contracted(written: str, read: str) -> None:
    assert contracted(written) == read


@pytest.mark.parametrize(
    "message",
    [
        "is it worth repotting a cactus in winter",
        "what's the best way to descale a kettle",
        "how long does a passport renewal take these days",
        "could we fit a sofa bed in the box room",
        "remind me which gate the coach leaves from",
        "I've got an hour spare — what should I read next",
        "do evening classes usually run over the summer",
        "say I took the later train — would that still get me there by noon",
    ],
)
def test_a_question_is_known_by_its_form_without_its_mark(message: str) -> None:
    assert is_question(message)
    assert read_text(message).endswith("?")


@pytest.mark.parametrize(
    "message",
    [
        "had a lovely swim this morning",
        "did my first parkrun today",
        "can't wait for the gig",
        "when I cycle to work I take the canal path",
        "what a week it's been",
        "do remember that I'm off on Friday",
        "I moved to Bristol in spring",
        "did that hike twice last summer",
    ],
)
def test_a_statement_that_opens_like_a_question_is_not_one(message: str) -> None:
    assert not is_question(message)
    assert not read_text(message).endswith("?")


@pytest.mark.parametrize(
    ("held", "reply", "new", "old"),
    [
        # an ordinal without its article or month replaces the fact's ordinal
        ("Your rent is due on 1st of the month", "no, 3rd", "3rd", "1st"),
        ("Your appointment is on the 9th of June", "sorry 10th", "10th of June", "9th"),
        # a month typed in lower case is still a month ("may" and "march" stay verbs)
        ("Your exams finish in june", "actually july", "july", "june"),
    ],
)
def test_a_date_typed_without_its_article_or_capital_replaces_the_old(
    held: str, reply: str, new: str, old: str
) -> None:
    refined = refine_fact(held, reply)
    assert new in refined and old not in refined


@pytest.mark.parametrize(
    ("message", "described"),
    [
        ("drop bit about my night shifts", "my night shifts"),
        ("please forget thing about me hating olives", "me hating olives"),
    ],
)
def test_a_forget_request_without_its_article_describes_the_fact(
    message: str, described: str
) -> None:
    assert forget_object(message) == described
    assert forget_description(message) == described


@pytest.mark.parametrize(
    ("reply", "project"),
    [
        ("keep that to podcast please", "Weekly podcast"),
        ("just for DIY stuff, thanks", "Garage DIY"),
    ],
)
def test_keeping_an_offer_to_a_project_needs_no_article(reply: str, project: str) -> None:
    assert limits_to_project(reply, project)
    assert not limits_to_project("keep that in mind", project)


def test_a_slipped_reason_word_still_names_the_personal_clause_of_a_note() -> None:
    assert personal_clause("Book aisle seats for every flight, becuase I'm claustrophobic") == (
        "You're claustrophobic"
    )
    # the clause is offered as typed: a word the vocabulary lacks is not read as another
    assert personal_clause("Keep it low-key, my knee flares up") == "Your knee flares up"
