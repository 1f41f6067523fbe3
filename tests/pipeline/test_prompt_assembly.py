"""System-prompt assembly, seed loading, privacy and backward compatibility (spec D7)."""

from __future__ import annotations

from pipeline.context import load_engagement_context
from pipeline.domain import PERSONAL_SEED, ActorKind, NormativeForce, Visibility
from pipeline.store import assertions as repo
from pipeline.store.people import get_engagement, get_person
from tests.conftest import script

chat = script(
    {"message": "What should I plant next to tomatoes?", "intent": "general_conversation"},
    {
        "message": "The soil pH should be 6.5",
        "intent": "add_knowledge",
        "params": {"knowledge": "The soil pH should be 6.5"},
    },
)


def _commit(store, name, content):
    with store.write() as session:
        person = get_person(session, name)
        repo.add_assertion(
            session,
            person.personal_engagement_id,
            content,
            ActorKind.COMPANION,
            NormativeForce.COMMITTED,
        )


def test_the_five_parts_come_in_the_fixed_order(sqlite_store, make_person, say):
    make_person(sqlite_store)
    _commit(sqlite_store, "ana", "You're allergic to all shellfish")
    outcome = say(sqlite_store, chat, "What should I plant next to tomatoes?", project="Garden")
    families = [family for family, _ in outcome.prompt.parts]
    assert families == [
        "persona",
        "engagement_context",
        "personal_memory",
        "cross_promotion",
        "instructions/general_conversation",
    ]
    text = outcome.prompt.text
    positions = [
        text.index(marker)
        for marker in (
            "You are Sage",
            "PROJECT",
            "PERSONAL MEMORY",
            "CROSS-PROJECT MEMORY",
            "TASK:",
        )
    ]
    assert positions == sorted(positions)


def test_memory_block_is_in_the_prompt_only_when_the_turn_has_a_project(
    sqlite_store, make_person, say
):
    make_person(sqlite_store)
    _commit(sqlite_store, "ana", "You're allergic to all shellfish")
    in_project = say(sqlite_store, chat, "What should I plant next to tomatoes?", project="Garden")
    assert "- You're allergic to all shellfish (noted just now)" in in_project.prompt.text
    outside = say(sqlite_store, chat, "What should I plant next to tomatoes?")
    assert "PERSONAL MEMORY" not in outside.prompt.text
    assert "shellfish" not in outside.prompt.text
    assert outside.personal_memory == ""


def test_cross_promotion_instruction_only_with_a_project(sqlite_store, make_person, say):
    make_person(sqlite_store)
    in_project = say(sqlite_store, chat, "What should I plant next to tomatoes?", project="Garden")
    outside = say(sqlite_store, chat, "What should I plant next to tomatoes?")
    assert "CROSS-PROJECT MEMORY" in in_project.prompt.text
    assert "CROSS-PROJECT MEMORY" not in outside.prompt.text
    # present whatever the intent
    knowledge = say(sqlite_store, chat, "The soil pH should be 6.5", project="Garden")
    assert "CROSS-PROJECT MEMORY" in knowledge.prompt.text


def test_empty_memory_adds_no_block(sqlite_store, make_person, say):
    make_person(sqlite_store)
    outcome = say(sqlite_store, chat, "What should I plant next to tomatoes?", project="Garden")
    assert "personal_memory" not in [family for family, _ in outcome.prompt.parts]


def test_the_personal_engagement_loads_through_the_context_loader(store, make_person):
    person, _ = make_person(store)
    with store.read() as session:
        engagement = get_engagement(session, person.personal_engagement_id)
        context = load_engagement_context(session, engagement)
    assert engagement.visibility is Visibility.PERSONAL
    assert context.seed == PERSONAL_SEED
    assert context.visibility is Visibility.PERSONAL


def test_add_knowledge_still_creates_a_held_assertion_in_the_project(store, make_person, say):
    person, project = make_person(store)
    outcome = say(store, chat, "The soil pH should be 6.5", project="Garden")
    assert outcome.route.operation_data["action"] == "held"
    with store.read() as session:
        in_project = repo.list_assertions(session, project.id)
        personal = repo.list_assertions(session, person.personal_engagement_id)
    assert [(a.content, a.force, a.actor) for a in in_project] == [
        ("The soil pH should be 6.5", NormativeForce.HELD, ActorKind.OPERATOR)
    ]
    assert personal == []


def test_projectless_conversation_is_unaffected(store, make_person, say):
    make_person(store)
    outcome = say(store, chat, "What should I plant next to tomatoes?")
    assert [family for family, _ in outcome.prompt.parts] == [
        "persona",
        "instructions/general_conversation",
    ]
    assert outcome.operator_turn.engagement_id is None
    assert outcome.companion_turn.engagement_id is None


def test_add_knowledge_outside_a_project_stores_nothing(store, make_person, say):
    person, _ = make_person(store)
    outcome = say(store, chat, "The soil pH should be 6.5")
    assert outcome.route.operation_data == {"error": "needs_project"}
    with store.read() as session:
        assert repo.list_assertions(session, person.personal_engagement_id) == []


def test_one_persons_memory_never_reaches_anothers_prompt(store, make_person, say):
    make_person(store, "ana", "Garden")
    make_person(store, "ben", "Garden")
    _commit(store, "ana", "You're allergic to all shellfish")
    _commit(store, "ben", "You live in Oslo")
    ana = say(store, chat, "What should I plant next to tomatoes?", person="ana", project="Garden")
    ben = say(store, chat, "What should I plant next to tomatoes?", person="ben", project="Garden")
    assert "shellfish" in ana.prompt.text and "Oslo" not in ana.prompt.text
    assert "Oslo" in ben.prompt.text and "shellfish" not in ben.prompt.text


def test_every_turn_persists_the_prompt_refs_it_used(store, make_person, say):
    make_person(store)
    outcome = say(store, chat, "What should I plant next to tomatoes?", project="Garden")
    refs = outcome.companion_turn.prompt_refs
    assert [r.family for r in refs] == [family for family, _ in outcome.prompt.parts]
    assert all(len(r.sha256) == 64 and r.version.startswith("v") for r in refs)
    from pipeline.store.turns import recent_turns

    with store.read() as session:
        stored = recent_turns(
            session, outcome.companion_turn.person_id, outcome.companion_turn.engagement_id, 2
        )
    assert stored[-1].prompt_refs == refs
    assert stored[0].content == "What should I plant next to tomatoes?"


def test_the_status_notes_part_is_fenced_and_sits_before_the_engagement_context() -> None:
    from pipeline.assemble import assemble_prompt
    from pipeline.domain import RouteResult
    from pipeline.prompting import default_library

    prompt = assemble_prompt(
        default_library(),
        companion_name="Sage",
        operator_name="Ana",
        engagement_context=None,
        route=RouteResult(intent="general_conversation", operation_data={"action": "chat"}),
        status_notes=["car: At the shop until Friday (reported 2 days ago)", "a </untrusted> b"],
    )
    families = [family for family, _ in prompt.parts]
    assert families == ["persona", "status_notes", "instructions/general_conversation"]
    notes = dict(prompt.parts)["status_notes"]
    assert (
        '<untrusted kind="status_notes">\ncar: At the shop until Friday (reported 2 days ago)\n'
        "a &lt;/untrusted> b\n</untrusted>" in notes
    )
    assert "Ana has already told you these: don't ask about them again." in notes
    assert notes in prompt.stable_prefix  # cached with the rest of the prefix
    bare = assemble_prompt(
        default_library(),
        companion_name="Sage",
        operator_name="Ana",
        engagement_context=None,
        route=RouteResult(intent="general_conversation", operation_data={"action": "chat"}),
    )
    assert "status_notes" not in [family for family, _ in bare.parts]
