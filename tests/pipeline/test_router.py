"""The remember / forget handlers, through full scripted turns (spec D7, router tests)."""

from __future__ import annotations

from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory.manage import personal_assertions
from pipeline.store import assertions as repo
from pipeline.store.people import get_person
from tests.conftest import script

ALLERGY = "You're allergic to all shellfish"

remember = script(
    {
        "message": "I'm allergic to shellfish",
        "intent": "remember_about_me",
        "params": {"personal_fact": ALLERGY},
    },
    {
        "message": "yes",
        "after": "remember_about_me",
        "intent": "remember_about_me",
        "reading": {"relation": "confirm"},
    },
    {
        "message": "that's right",
        "after": "remember_about_me",
        "intent": "remember_about_me",
        # the fact again as memory stores it, typed differently: no reading, read as confirm
        "params": {"personal_fact": "you’re  ALLERGIC to all shellfish."},
    },
    {
        "message": "no, just shrimp",
        "after": "remember_about_me",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to shrimp"},
        "reading": {"relation": "correct", "corrected": "You're allergic to shrimp"},
    },
    {
        "message": "never mind",
        "intent": "general_conversation",
        "reading": {"relation": "reject"},
    },
    {"message": "how are you?", "intent": "general_conversation"},
)


def _personal(store, name="ana"):
    with store.read() as session:
        return personal_assertions(session, get_person(session, name), include_retracted=True)


def test_new_fact_is_held_in_the_personal_engagement_by_the_companion(store, make_person, say):
    person, _ = make_person(store)
    outcome = say(store, remember, "I'm allergic to shellfish")
    assert outcome.route.operation_data == {
        "action": "held",
        "personal_fact": ALLERGY,
        "assertion_display_number": 1,
    }
    [stored] = _personal(store)
    assert stored.engagement_id == person.personal_engagement_id
    assert (stored.content, stored.force, stored.actor) == (
        ALLERGY,
        NormativeForce.HELD,
        ActorKind.COMPANION,
    )


def test_confirmation_commits_the_held_assertion(store, make_person, say):
    make_person(store)
    say(store, remember, "I'm allergic to shellfish")
    outcome = say(store, remember, "yes")
    assert outcome.route.operation_data["action"] == "committed"
    [stored] = _personal(store)
    assert stored.force is NormativeForce.COMMITTED
    assert stored.content == ALLERGY


def test_an_answer_without_a_reading_restating_the_fact_commits(store, make_person, say):
    # case, spacing, punctuation and the typographic apostrophe aside: the core reads no words
    make_person(store)
    say(store, remember, "I'm allergic to shellfish")
    assert say(store, remember, "that's right").route.operation_data["action"] == "committed"
    assert _personal(store)[0].content == ALLERGY


def test_refinement_amends_the_content_and_keeps_it_held(store, make_person, say):
    make_person(store)
    say(store, remember, "I'm allergic to shellfish")
    outcome = say(store, remember, "no, just shrimp")
    assert outcome.route.operation_data["action"] == "refined"
    assert outcome.route.operation_data["previous_fact"] == ALLERGY
    [stored] = _personal(store)
    assert (stored.content, stored.force) == ("You're allergic to shrimp", NormativeForce.HELD)
    # the refined version is confirmed on the next turn
    assert say(store, remember, "yes").route.operation_data["action"] == "committed"
    assert _personal(store)[0].force is NormativeForce.COMMITTED


def test_rejection_retracts_the_offered_held_assertion(store, make_person, say):
    make_person(store)
    say(store, remember, "I'm allergic to shellfish")
    outcome = say(store, remember, "never mind")
    assert outcome.route.intent == "general_conversation"
    assert outcome.route.operation_data["action"] == "rejected"
    [stored] = _personal(store)
    assert stored.force is NormativeForce.RETRACTED
    assert stored.retraction_rationale


def test_conversation_without_a_prior_offer_changes_nothing(store, make_person, say):
    make_person(store)
    say(store, remember, "I'm allergic to shellfish")
    say(store, remember, "yes")
    outcome = say(store, remember, "how are you?")
    assert outcome.route.operation_data == {"action": "none"}
    assert _personal(store)[0].force is NormativeForce.COMMITTED


def _committed(store, *contents, name="ana"):
    with store.write() as session:
        person = get_person(session, name)
        for content in contents:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                content,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )


forget = script(
    {
        "message": "forget that I live in Miami",
        "intent": "forget_about_me",
        "params": {"forget_description": "I live in Miami"},
    },
    {
        "message": "forget my allergy",
        "intent": "forget_about_me",
        "params": {"forget_description": "my allergy"},
    },
    {
        "message": "forget my diet stuff",
        "intent": "forget_about_me",
        "params": {"forget_description": "my diet"},
    },
    {
        "message": "forget my tattoo",
        "intent": "forget_about_me",
        "params": {"forget_description": "my tattoo"},
    },
    {
        "message": "yes",
        "after": "forget_about_me",
        "intent": "forget_about_me",
        "params": {"forget_description": "Miami"},
        "reading": {"relation": "confirm"},
    },
    {
        "message": "the second one",
        "after": "forget_about_me",
        "intent": "forget_about_me",
        "params": {"forget_description": "the second one"},
        "reading": {"relation": "choose", "chosen": [2]},
    },
)


def test_forget_with_a_unique_keyword_match_asks_to_confirm(store, make_person, say):
    make_person(store)
    _committed(store, "You live in Miami", "You're allergic to all shellfish")
    data = say(store, forget, "forget that I live in Miami").route.operation_data
    assert data["action"] == "confirm_retraction"
    assert data["matched_fact"] == "You live in Miami"
    assert data["assertion_display_number"] == 1
    assert all(a.force is NormativeForce.COMMITTED for a in _personal(store))


def test_confirmed_forget_retracts_what_was_matched_with_a_rationale(store, make_person, say):
    make_person(store)
    _committed(store, "You live in Miami", "You're allergic to all shellfish")
    first = say(store, forget, "forget that I live in Miami")
    # the match is kept on the companion turn and reused, not re-guessed
    assert first.companion_turn.operation_data["matched_assertion_id"] == 1
    data = say(store, forget, "yes").route.operation_data
    assert data["action"] == "retracted"
    assert data["retracted_fact"] == "You live in Miami"
    by_content = {a.content: a for a in _personal(store)}
    assert by_content["You live in Miami"].force is NormativeForce.RETRACTED
    assert by_content["You live in Miami"].retraction_rationale
    assert by_content["You're allergic to all shellfish"].force is NormativeForce.COMMITTED


def test_forget_with_no_match(store, make_person, say):
    make_person(store)
    _committed(store, "You live in Miami")
    data = say(store, forget, "forget my tattoo").route.operation_data
    assert data["action"] == "no_match"
    assert data["stored_count"] == 1


def test_forget_when_nothing_is_stored_is_no_match(store, make_person, say):
    make_person(store)
    data = say(store, forget, "forget my tattoo").route.operation_data
    assert data == {"action": "no_match", "forget_description": "my tattoo", "stored_count": 0}


def test_forget_with_several_matches_is_ambiguous_with_candidates(store, make_person, say):
    make_person(store)
    _committed(
        store, "You keep a vegetarian diet", "Your partner follows a keto diet", "You live in Miami"
    )
    data = say(store, forget, "forget my diet stuff").route.operation_data
    assert data["action"] == "ambiguous"
    assert sorted(data["candidates"], key=lambda c: c["display_number"]) == [
        {"content": "You keep a vegetarian diet", "display_number": 1},
        {"content": "Your partner follows a keto diet", "display_number": 2},
    ]


def test_choosing_a_candidate_after_ambiguity_asks_to_confirm_it(store, make_person, say):
    make_person(store)
    _committed(store, "You keep a vegetarian diet", "Your partner follows a keto diet")
    candidates = say(store, forget, "forget my diet stuff").route.operation_data["candidates"]
    data = say(store, forget, "the second one").route.operation_data
    assert data["action"] == "confirm_retraction"
    # the scripted reading chose #2
    assert (
        data["matched_fact"] == next(c for c in candidates if c["display_number"] == 2)["content"]
    )


def test_held_and_retracted_assertions_are_never_forget_candidates(store, make_person, say):
    make_person(store)
    with store.write() as session:
        person = get_person(session, "ana")
        repo.add_assertion(
            session,
            person.personal_engagement_id,
            "Your allergy is to peanuts",
            ActorKind.COMPANION,
            NormativeForce.HELD,
        )
    assert say(store, forget, "forget my allergy").route.operation_data["action"] == "no_match"


def test_person_without_personal_engagement_gets_the_error(store, make_person, say):
    from sqlalchemy import update

    from pipeline.store.tables import PersonRow

    make_person(store)
    with store.write() as session:
        session.execute(update(PersonRow).values(personal_engagement_id=None))
    assert say(store, remember, "I'm allergic to shellfish").route.operation_data == {
        "error": "no_personal_engagement"
    }
    assert say(store, forget, "forget my tattoo").route.operation_data == {
        "error": "no_personal_engagement"
    }


def test_an_unrelated_new_fact_after_an_offer_is_held_not_a_refinement(store, make_person, say):
    make_person(store)
    provider = script(
        {
            "message": "I'm allergic to shellfish",
            "intent": "remember_about_me",
            "params": {"personal_fact": ALLERGY},
        },
        {
            "message": "also, I live in Miami",
            "intent": "remember_about_me",
            "params": {"personal_fact": "You live in Miami"},
        },
    )
    say(store, provider, "I'm allergic to shellfish")
    data = say(store, provider, "also, I live in Miami").route.operation_data
    assert data["action"] == "held"
    assert sorted(a.content for a in _personal(store)) == sorted([ALLERGY, "You live in Miami"])


def test_a_value_only_correction_after_an_offer_is_a_refinement(store, make_person, say):
    make_person(store)
    provider = script(
        {
            "message": "I'm 42",
            "intent": "remember_about_me",
            "params": {"personal_fact": "You're 42"},
        },
        {
            "message": "actually I'm 43",
            "after": "remember_about_me",
            "intent": "remember_about_me",
            "params": {"personal_fact": "You're 43"},
            "reading": {"relation": "correct", "corrected": "You're 43"},
        },
    )
    say(store, provider, "I'm 42")
    data = say(store, provider, "actually I'm 43").route.operation_data
    assert data["action"] == "refined"
    assert [(a.content, a.force) for a in _personal(store)] == [("You're 43", NormativeForce.HELD)]


def test_a_correction_that_changes_nothing_neither_commits_nor_drops_the_offer(
    store, make_person, say
):
    make_person(store)
    provider = script(
        {
            "message": "my train leaves at 8:20",
            "intent": "remember_about_me",
            "params": {"personal_fact": "Your train leaves at 8:20"},
        },
        {
            "message": "no, 8:50",
            "after": "remember_about_me",
            "intent": "remember_about_me",
            "params": {"personal_fact": "Your train leaves at 8:20"},
            # the reader saw a correction but put nothing new in it
            "reading": {"relation": "correct", "corrected": "Your train leaves at 8:20"},
        },
    )
    say(store, provider, "my train leaves at 8:20")
    again = say(store, provider, "no, 8:50")
    assert again.route.operation_data["action"] == "held"
    assert again.route.operation_data["correction_unread"] is True
    assert "didn't catch the change" in again.reply.text
    assert [(a.content, a.force) for a in _personal(store)] == [
        ("Your train leaves at 8:20", NormativeForce.HELD)
    ]


def test_a_forget_naming_nothing_right_after_a_commit_asks_about_that_fact(store, make_person, say):
    make_person(store)
    provider = script(
        {
            "message": "I'm allergic to shellfish",
            "intent": "remember_about_me",
            "params": {"personal_fact": ALLERGY},
        },
        {
            "message": "yes",
            "after": "remember_about_me",
            "intent": "remember_about_me",
            "reading": {"relation": "confirm"},
        },
        {
            "message": "bin that",
            "intent": "forget_about_me",
            "params": {"forget_description": "that"},
        },
    )
    say(store, provider, "I'm allergic to shellfish")
    say(store, provider, "yes")
    asked = say(store, provider, "bin that").route.operation_data
    assert (asked["action"], asked["matched_fact"]) == ("confirm_retraction", ALLERGY)
    # asked, not done: the fact stays until the person says yes
    assert [(a.content, a.force) for a in _personal(store)] == [(ALLERGY, NormativeForce.COMMITTED)]
