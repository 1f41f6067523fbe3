"""Whole conversations through converse(): what memory holds afterwards, one test per behaviour
class of docs/intents.md ("Readings"). The scripted provider plays a classifier that extracts
the fact and reads the reply well (its typed reading), so a failure here is the handlers'
fault, never the model's."""

from __future__ import annotations

from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory.manage import erase, personal_assertions
from pipeline.store import assertions as repo
from pipeline.store.people import get_person, get_project
from tests.conftest import script

R, F, G = "remember_about_me", "forget_about_me", "general_conversation"


def _facts(store, name="ana"):
    with store.read() as session:
        found = personal_assertions(session, get_person(session, name), include_retracted=True)
    return {(a.content, a.force) for a in found}


def _live(store, name="ana"):
    return {c for c, f in _facts(store, name) if f is not NormativeForce.RETRACTED}


def _notes(store, project="Garden", name="ana"):
    with store.read() as session:
        engagement = get_project(session, get_person(session, name), project)
        found = repo.list_assertions(session, engagement.id, list(NormativeForce))
    return {(a.content, a.force) for a in found}


def _seed(store, *facts, name="ana"):
    with store.write() as session:
        person = get_person(session, name)
        for fact in facts:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                fact,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )


def _seed_note(store, content, project="Garden", name="ana"):
    with store.write() as session:
        engagement = get_project(session, get_person(session, name), project)
        repo.add_assertion(
            session, engagement.id, content, ActorKind.OPERATOR, NormativeForce.COMMITTED
        )


# 1. A value correction after an offer replaces the value and keeps the rest.
def test_value_correction_refines_the_offer_and_commits_it(store, make_person, say):
    make_person(store)
    lila = "Your daughter Lila is five and loves picking strawberries"
    six = "Your daughter Lila is six and loves picking strawberries"
    p = script(
        {
            "message": "My daughter Lila is five and loves picking strawberries",
            "intent": R,
            "params": {"personal_fact": lila},
        },
        {
            "message": "no, actually she's six",
            "intent": R,
            "params": {"personal_fact": six},
            "reading": {"relation": "correct", "corrected": six},
        },
        {"message": "yes", "intent": R, "reading": {"relation": "confirm"}},
    )
    say(store, p, "My daughter Lila is five and loves picking strawberries", project="Garden")
    refined = say(store, p, "no, actually she's six", project="Garden")
    assert refined.route.operation_data["action"] == "refined"
    assert _facts(store) == {(six, NormativeForce.HELD)}
    say(store, p, "yes", project="Garden")
    assert _facts(store) == {(six, NormativeForce.COMMITTED)}


# 2. Two different facts in a row: both kept, neither overwrites the other.
def test_a_second_fact_without_a_cue_is_held_on_its_own(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "I'm allergic to peanuts",
            "intent": R,
            "params": {"personal_fact": "You're allergic to peanuts"},
        },
        {
            "message": "I'm allergic to kiwi",
            "intent": R,
            "params": {"personal_fact": "You're allergic to kiwi"},
        },
    )
    say(store, p, "I'm allergic to peanuts")
    second = say(store, p, "I'm allergic to kiwi")
    assert second.route.operation_data["action"] == "held"
    assert _facts(store) == {
        ("You're allergic to peanuts", NormativeForce.HELD),
        ("You're allergic to kiwi", NormativeForce.HELD),
    }


def test_restating_a_stored_fact_stores_no_copy(store, make_person, say):
    make_person(store)
    _seed(store, "You're allergic to peanuts")
    p = script(
        {
            "message": "I'm allergic to peanuts",
            "intent": R,
            "params": {"personal_fact": "You're allergic to peanuts"},
        }
    )
    outcome = say(store, p, "I'm allergic to peanuts")
    assert outcome.route.operation_data["action"] == "already_known"
    assert _facts(store) == {("You're allergic to peanuts", NormativeForce.COMMITTED)}


# 3. Something unrelated after an offer leaves it held; only a rejection retracts it.
def test_unrelated_message_after_an_offer_leaves_it_held(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "I'm vegetarian",
            "intent": R,
            "params": {"personal_fact": "You're vegetarian"},
        },
        {"message": "what's a good wine with pasta?", "intent": G},
        {"message": "never mind", "intent": G},
    )
    say(store, p, "I'm vegetarian")
    say(store, p, "what's a good wine with pasta?")
    assert _facts(store) == {("You're vegetarian", NormativeForce.HELD)}


def test_outright_rejection_retracts_the_offer(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "I'm vegetarian",
            "intent": R,
            "params": {"personal_fact": "You're vegetarian"},
        },
        {"message": "no thanks, don't bother", "intent": G, "reading": {"relation": "reject"}},
    )
    say(store, p, "I'm vegetarian")
    assert say(store, p, "no thanks, don't bother").route.operation_data["action"] == "rejected"
    assert _facts(store) == {("You're vegetarian", NormativeForce.RETRACTED)}


# 4. A correction during a forget confirmation retracts nothing and matches again.
def test_correction_during_forget_confirmation_matches_again(store, make_person, say):
    make_person(store)
    _seed(store, "You're allergic to peanuts", "Your birthday is March 3rd")
    p = script(
        {
            "message": "forget my peanut allergy",
            "intent": F,
            "params": {"forget_description": "peanut allergy"},
        },
        {
            "message": "no, my birthday instead",
            "intent": F,
            "params": {"forget_description": "peanut allergy"},
            "reading": {"relation": "correct", "corrected": "my birthday"},
        },
        {
            "message": "the second one",
            "intent": F,
            "params": {"forget_description": "second"},
            "reading": {"relation": "choose"},
        },
        {"message": "yes", "intent": F, "reading": {"relation": "confirm"}},
    )
    say(store, p, "forget my peanut allergy")
    again = say(store, p, "no, my birthday instead")
    assert again.route.operation_data["action"] == "confirm_retraction"
    assert again.route.operation_data["matched_fact"] == "Your birthday is March 3rd"
    assert _live(store) == {"You're allergic to peanuts", "Your birthday is March 3rd"}
    asked = say(store, p, "the second one")
    assert asked.route.operation_data["action"] == "confirm_retraction"
    assert asked.route.operation_data["asked_again"] is True
    assert _live(store) == {"You're allergic to peanuts", "Your birthday is March 3rd"}
    say(store, p, "yes")
    assert _live(store) == {"You're allergic to peanuts"}


def test_forget_it_after_a_declined_offer_retracts_nothing(store, make_person, say):
    make_person(store)
    _seed(store, "You're allergic to peanuts")
    p = script(
        {
            "message": "I'm vegetarian",
            "intent": R,
            "params": {"personal_fact": "You're vegetarian"},
        },
        {"message": "never mind", "intent": G, "reading": {"relation": "reject"}},
        {"message": "forget it", "intent": F, "params": {"forget_description": "it"}},
    )
    say(store, p, "I'm vegetarian")
    say(store, p, "never mind")
    say(store, p, "forget it")
    assert _live(store) == {"You're allergic to peanuts"}


# 6. Project knowledge is retracted only after a confirmation, matched on content words.
def test_project_note_is_retracted_after_confirmation_and_restored_on_request(
    store, make_person, say
):
    make_person(store)
    _seed_note(store, "Drip irrigation runs at 6 am")
    _seed_note(store, "The tomato note: stake them early")
    p = script(
        {
            "message": "remove the irrigation note",
            "intent": "retract_knowledge",
            "params": {"knowledge_description": "the irrigation note"},
        },
        {"message": "yes", "intent": "retract_knowledge", "reading": {"relation": "confirm"}},
        {
            "message": "put the irrigation note back",
            "intent": "retract_knowledge",
            "params": {"knowledge_description": "the irrigation note"},
            "restore": True,
        },
    )
    asked = say(store, p, "remove the irrigation note", project="Garden")
    assert asked.route.operation_data["action"] == "confirm_retraction"
    assert ("Drip irrigation runs at 6 am", NormativeForce.COMMITTED) in _notes(store)
    say(store, p, "yes", project="Garden")
    assert _notes(store) == {
        ("Drip irrigation runs at 6 am", NormativeForce.RETRACTED),
        ("The tomato note: stake them early", NormativeForce.COMMITTED),
    }
    restored = say(store, p, "put the irrigation note back", project="Garden")
    assert restored.route.operation_data["action"] == "restored"
    assert ("Drip irrigation runs at 6 am", NormativeForce.HELD) in _notes(store)
    assert ("The tomato note: stake them early", NormativeForce.COMMITTED) in _notes(store)


# 7. Recall answers from personal memory (and project knowledge in a project).
def test_recall_lists_everything_inside_and_outside_a_project(store, make_person, say):
    make_person(store)
    _seed(store, "You're allergic to peanuts", "Your birthday is March 3rd")
    _seed_note(store, "The beds get six hours of sun")
    p = script(
        {
            "message": "what do you know about me?",
            "intent": "ask_about_past_input",
            "params": {"query": "me"},
        },
        {
            "message": "what did I tell you about my birthday?",
            "intent": "ask_about_past_input",
            "params": {"query": "my birthday"},
        },
    )
    outside = say(store, p, "what do you know about me?")
    assert "peanuts" in outside.reply.text and "March 3rd" in outside.reply.text
    inside = say(store, p, "what do you know about me?", project="Garden")
    assert "peanuts" in inside.reply.text and "six hours of sun" in inside.reply.text
    birthday = say(store, p, "what did I tell you about my birthday?")
    assert "March 3rd" in birthday.reply.text and "peanuts" not in birthday.reply.text


# 8. Capabilities in the person's words, never internal names or made-up settings.
def test_capabilities_are_described_in_plain_words(store, make_person, say):
    make_person(store)
    p = script({"message": "what can you do?", "intent": "describe_capabilities"})
    text = say(store, p, "what can you do?").reply.text
    assert "remember" in text.lower()
    for internal in (R, F, "add_knowledge", "ask_about_past_input", "settings", "{"):
        assert internal not in text


def test_forget_reply_names_a_real_command_not_settings(store, make_person, say):
    make_person(store)
    _seed(store, "You live in Miami")
    p = script(
        {"message": "forget where I live", "intent": F, "params": {"forget_description": "live"}},
        {"message": "yes", "intent": F},
    )
    say(store, p, "forget where I live")
    text = say(store, p, "yes").reply.text
    assert "settings" not in text and "converse memory erase 1" in text


# 9. Cross-promotion: yes stores a personal fact; "just this project" keeps it a note.
def test_cross_promotion_yes_commits_a_personal_fact(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "I don't eat pork",
            "intent": "add_knowledge",
            "params": {"knowledge": "I don't eat pork"},
            "reply": "Noted. Want me to remember that across all your projects?",
        },
        {
            "message": "sure, go ahead",
            "intent": R,
            "params": {"personal_fact": "You don't eat pork"},
            "reading": {"relation": "confirm"},
        },
    )
    say(store, p, "I don't eat pork", project="Garden")
    outcome = say(store, p, "sure, go ahead", project="Garden")
    assert outcome.route.operation_data["action"] == "committed"
    assert _facts(store) == {("You don't eat pork", NormativeForce.COMMITTED)}


def test_just_this_project_keeps_an_offered_fact_as_project_knowledge(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "I'm vegetarian",
            "intent": R,
            "params": {"personal_fact": "You're vegetarian"},
        },
        {
            "message": "no, just this project",
            "intent": G,
            "reading": {"relation": "reject", "project_only": True},
        },
    )
    say(store, p, "I'm vegetarian", project="Garden")
    say(store, p, "no, just this project", project="Garden")
    assert _live(store) == set()
    assert ("You're vegetarian", NormativeForce.HELD) in _notes(store)


# 10. Erase, then recall: nothing of the fact comes back.
def test_recall_after_erase_finds_nothing(store, make_person, say):
    make_person(store)
    _seed(store, "You're allergic to peanuts", "Your birthday is March 3rd")
    with store.write() as session:
        erase(session, get_person(session, "ana"), [1])
    p = script(
        {
            "message": "what do you know about me?",
            "intent": "ask_about_past_input",
            "params": {"query": "me"},
        }
    )
    text = say(store, p, "what do you know about me?").reply.text
    assert "peanut" not in text.lower() and "March 3rd" in text


# 11. The specification's own example, through the add_knowledge handler.
def test_spec_example_project_fact_is_held_in_the_project(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "We use PostgreSQL for this project",
            "intent": "add_knowledge",
            "params": {"knowledge": "We use PostgreSQL for this project"},
        }
    )
    say(store, p, "We use PostgreSQL for this project", project="Garden")
    assert _notes(store) == {("We use PostgreSQL for this project", NormativeForce.HELD)}
    assert _live(store) == set()


def test_a_question_about_oneself_is_answered_from_memory(store, make_person, say):
    make_person(store)
    _seed(store, "You go to the climbing gym on Tuesdays and Thursdays")
    p = script(
        {"message": "which days do I go to the climbing gym?", "intent": G, "question": True},
        {"message": "what should we talk about?", "intent": G, "question": True},
    )
    outcome = say(store, p, "which days do I go to the climbing gym?")
    assert outcome.route.intent == "ask_about_past_input"
    assert "Tuesdays" in outcome.reply.text
    assert say(store, p, "what should we talk about?").route.intent == G


def test_picking_an_ambiguous_note_by_its_words_then_confirming(store, make_person, say):
    make_person(store)
    _seed_note(store, "Back squats are 5x5 at 80 kg")
    _seed_note(store, "Front squats are 3x8 at 50 kg")
    p = script(
        {
            "message": "scrap the squat note",
            "intent": "retract_knowledge",
            "params": {"knowledge_description": "the squat note"},
        },
        {
            "message": "the front squat one",
            "intent": "add_knowledge",
            "params": {"knowledge": "The front squat one"},
            "reading": {"relation": "choose"},
        },
        {"message": "yes", "intent": G, "reading": {"relation": "confirm"}},
    )
    assert (
        say(store, p, "scrap the squat note", project="Garden").route.operation_data["action"]
        == "ambiguous"
    )
    picked = say(store, p, "the front squat one", project="Garden")
    assert picked.route.operation_data["matched_fact"] == "Front squats are 3x8 at 50 kg"
    say(store, p, "yes", project="Garden")
    assert _notes(store) == {
        ("Back squats are 5x5 at 80 kg", NormativeForce.COMMITTED),
        ("Front squats are 3x8 at 50 kg", NormativeForce.RETRACTED),
    }


def test_lock_that_in_commits_the_note_just_added(store, make_person, say):
    make_person(store)
    p = script(
        {
            "message": "We use PostgreSQL for this project",
            "intent": "add_knowledge",
            "params": {"knowledge": "We use PostgreSQL for this project"},
        },
        {
            "message": "lock that in",
            "intent": "commit_knowledge",
            "params": {"knowledge_reference": "that"},
        },
    )
    say(store, p, "We use PostgreSQL for this project", project="Garden")
    say(store, p, "lock that in", project="Garden")
    assert _notes(store) == {("We use PostgreSQL for this project", NormativeForce.COMMITTED)}


def test_a_correction_to_a_forget_question_is_matched_again_whatever_it_was_read_as(
    store, make_person, say
):
    make_person(store)
    _seed(store, "You live in Denver", "Your son plays violin")
    p = script(
        {
            "message": "please forget about my son",
            "intent": F,
            "params": {"forget_description": "my son"},
        },
        {
            "message": "no no, where I live",
            "intent": R,
            "params": {"personal_fact": "No no, where you live"},
            "reading": {"relation": "correct", "corrected": "where I live"},
        },
    )
    say(store, p, "please forget about my son")
    again = say(store, p, "no no, where I live")
    assert again.route.operation_data["matched_fact"] == "You live in Denver"
    assert _live(store) == {"You live in Denver", "Your son plays violin"}


def test_a_note_is_found_by_its_singular_and_a_project_question_by_its_notes(
    store, make_person, say
):
    make_person(store)
    _seed_note(store, "The greenhouse vents open at 24 degrees")
    _seed_note(store, "Budget for the kitchen is 12k")
    p = script(
        {
            "message": "delete the vent note",
            "intent": "retract_knowledge",
            "params": {"knowledge_description": "the vent note"},
        },
        {"message": "what's the kitchen budget again?", "intent": G, "question": True},
    )
    asked = say(store, p, "delete the vent note", project="Garden")
    assert asked.route.operation_data["matched_fact"] == "The greenhouse vents open at 24 degrees"
    answered = say(store, p, "what's the kitchen budget again?", project="Garden")
    assert answered.route.intent == "ask_about_past_input" and "12k" in answered.reply.text


def test_a_correction_naming_an_earlier_offer_refines_that_offer(store, make_person, say):
    make_person(store)
    p = script(
        {"message": "I work nights", "intent": R, "params": {"personal_fact": "You work nights"}},
        {"message": "any ideas for dinner?", "intent": G, "question": True},
        {
            "message": "actually it's days not nights",
            "intent": R,
            "params": {"personal_fact": "You work days"},
            "reading": {"relation": "correct", "corrected": "You work days", "chosen": [1]},
        },
    )
    say(store, p, "I work nights")
    say(store, p, "any ideas for dinner?")
    refined = say(store, p, "actually it's days not nights")
    assert refined.route.operation_data["action"] == "refined"
    assert _facts(store) == {("You work days", NormativeForce.HELD)}
