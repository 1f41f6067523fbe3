"""The assembled system prompt and the classifier prompt, pinned: a prompt change is a diff here.

Update after an intended change with `pytest tests/prompts --snapshot-update`, and review it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pipeline.assemble import assemble_prompt, classifier_prompt
from pipeline.context import load_engagement_context
from pipeline.domain import ActorKind, NormativeForce, RouteResult
from pipeline.memory.block import load_personal_memory
from pipeline.prompting import default_library
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project

NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)


def fixture_turn_prompt(store: Store) -> str:
    """A project turn: settled project knowledge, two personal facts, a new fact held."""
    with store.write() as session:
        person = create_person(session, "Ana")
        project = create_project(
            session, person, "Backyard garden", "A small backyard vegetable farm with raised beds"
        )
        assert person.personal_engagement_id is not None
        committed = NormativeForce.COMMITTED
        repo.add_assertion(
            session,
            project.id,
            "The soil pH should be 6.5",
            ActorKind.OPERATOR,
            committed,
            created_at=NOW - timedelta(days=2),
        )
        for content, age in [
            ("Your birthday is March 15th", timedelta(days=8)),
            ("You're allergic to all shellfish", timedelta(days=3)),
        ]:
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                content,
                ActorKind.COMPANION,
                committed,
                created_at=NOW - age,
            )
        context = load_engagement_context(session, project)
        memory = load_personal_memory(session, person.personal_engagement_id, NOW)
    route = RouteResult(
        intent="remember_about_me",
        operation_data={
            "action": "held",
            "personal_fact": "You prefer working in the mornings",
            "assertion_display_number": 3,
        },
    )
    prompt = assemble_prompt(
        default_library(),
        companion_name="Sage",
        operator_name="Ana",
        engagement_context=context,
        route=route,
        personal_memory=memory,
        has_project=True,
    )
    assert prompt.text == f"{prompt.stable_prefix}\n\n{prompt.instruction}"
    return prompt.text


def test_assembled_system_prompt_for_a_fixture_turn(sqlite_store: Store, snapshot) -> None:
    assert fixture_turn_prompt(sqlite_store) == snapshot


def test_classifier_prompt_inside_a_project(snapshot) -> None:
    assert classifier_prompt(default_library(), project_name="Backyard garden").text == snapshot
