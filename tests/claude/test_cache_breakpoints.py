"""Where the Claude requests put their prompt-cache breakpoints: everything that stays the same
across a session's turns is in the one cached block, and nothing that changes per turn is."""

from __future__ import annotations

from pipeline.assemble import assemble_prompt, classifier_prompt
from pipeline.context import EngagementContext
from pipeline.domain import RouteResult, Visibility
from pipeline.memory.session import SessionContext
from pipeline.prompting import default_library
from pipeline.providers.claude.wire import classifier_system, responder_system


def test_the_responder_caches_the_stable_parts_and_not_the_instruction() -> None:
    prompt = assemble_prompt(
        default_library(),
        companion_name="Sage",
        operator_name="Ana",
        engagement_context=EngagementContext(
            "Backyard garden", Visibility.PROJECT, "Raised beds, clay soil", "- pH 6.5"
        ),
        route=RouteResult(intent="general_conversation", operation_data={"action": "none"}),
        personal_memory="PERSONAL MEMORY\n- You live in Porto (noted 2 days ago)",
        has_project=True,
        session_context=SessionContext(
            working_memory="The car is at the shop.", written="1 day ago"
        ),
        conversation_summary="Ana planned the beds.",
    )
    cached, turn = responder_system(prompt)
    assert cached.get("cache_control") == {"type": "ephemeral"}
    assert "cache_control" not in turn
    for stable in (
        "Sage",
        "The car is at the shop.",
        "Ana planned the beds.",
        "Raised beds",
        "You live in Porto",
    ):
        assert stable in cached["text"] and stable not in turn["text"]
    assert turn["text"] == prompt.instruction


def test_the_classifier_caches_everything_before_the_turns_project() -> None:
    text = classifier_prompt(default_library(), project_name="Backyard garden").text
    cached, turn = classifier_system(text)
    assert cached.get("cache_control") == {"type": "ephemeral"}
    assert "cache_control" not in turn
    assert "remember_about_me" in cached["text"] and "Backyard garden" not in cached["text"]
    assert turn["text"].startswith("CONVERSATION") and "Backyard garden" in turn["text"]
    outside = classifier_system(classifier_prompt(default_library(), project_name=None).text)
    assert outside[0] == cached  # one cache entry for every project and for none
